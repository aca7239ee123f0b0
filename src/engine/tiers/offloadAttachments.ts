/**
 * Attached context is data, like a tool result: the blocks of a message that nobody in the session
 * wrote (a file the editor attached, the workspace's tree, the host's reminders; `injected`). A
 * request whose live messages are too large even after a checkpoint took everything it may is
 * CRITICAL; when attached context is what keeps it there, its largest blocks go to files by tier
 * 1's own mechanism (a preview and the path, `ctx_read_offloaded`) until the context is below RED.
 * What the user typed stays as it was, and the archive keeps every block as it arrived.
 */
import { errorMessage } from '../errors';
import { injectedTextBlock, type Block, type Message } from '../types';
import { KEEP_STRUCTURED_BELOW_TOKENS, offloadText, type OffloadTarget } from './offload';
import type { OffloadRecord } from '../model/offloadRecord';

/** How offloaded attached context is named, in files, records and the tree. */
export const ATTACHED_CONTEXT = 'attached context';

/** Attached blocks smaller than this stay: their preview and path would take about as much. */
export const MIN_ATTACHED_TOKENS = KEEP_STRUCTURED_BELOW_TOKENS;

export interface AttachmentOffloadInput {
  readonly active: readonly Message[];
  /** At least this many tokens are to leave the context. */
  readonly excessTokens: number;
  /** Tokens of a block, as the request was measured. */
  blockTokens(block: Block): number;
  countText(text: string): Promise<number>;
  readonly target: OffloadTarget;
  readonly now: number;
  /** True while token counts are estimates. */
  readonly estimated: boolean;
}

export interface AttachmentOffload {
  readonly messages: readonly Message[];
  readonly records: readonly OffloadRecord[];
  /** One line per block whose file could not be written; those stay in the context. */
  readonly failures: readonly string[];
}

interface Candidate {
  readonly message: number;
  readonly block: number;
  readonly text: string;
  readonly tokens: number;
}

/** Offloads the largest attached blocks of the live messages until `excessTokens` have left. */
export async function offloadAttachments(input: AttachmentOffloadInput): Promise<AttachmentOffload> {
  const messages = [...input.active];
  const records: OffloadRecord[] = [];
  const failures: string[] = [];
  let saved = 0;
  for (const c of candidates(input)) {
    if (saved >= input.excessTokens) break;
    const message = messages[c.message];
    const id = attachmentId(message.id, c.block);
    let offloaded;
    try {
      offloaded = await offloadText(
        c.text,
        { toolName: ATTACHED_CONTEXT, id, isError: false, heading: `${ATTACHED_CONTEXT} of a ${message.role} message` },
        c.tokens,
        input.now,
        input.target,
      );
    } catch (e) {
      failures.push(
        `The attached context of message ${message.id} could not be written to a file (${errorMessage(e)}); it stays in the context.`,
      );
      continue;
    }
    const savedTokens = Math.max(0, c.tokens - (await input.countText(offloaded.replacement)));
    saved += savedTokens;
    messages[c.message] = {
      ...message,
      blocks: message.blocks.map((b, i) => (i === c.block ? injectedTextBlock(offloaded.replacement) : b)),
    };
    records.push({
      callId: id,
      toolName: ATTACHED_CONTEXT,
      file: offloaded.file,
      tokens: c.tokens,
      savedTokens,
      kind: offloaded.kind,
      isError: false,
      at: input.now,
      estimated: input.estimated,
    });
  }
  return { messages: records.length > 0 ? messages : input.active, records, failures };
}

/** The id an attached block's record and file are named by: its message and its place there. */
function attachmentId(messageId: string, blockIndex: number): string {
  return `${messageId}#attached-${blockIndex}`;
}

/** Attached blocks large enough to be worth a file, the largest first; one already offloaded is its preview. */
function candidates(input: AttachmentOffloadInput): Candidate[] {
  const found: Candidate[] = [];
  input.active.forEach((m, message) =>
    m.blocks.forEach((b, block) => {
      if (b.type !== 'text' || b.injected !== true || b.text.startsWith(OFFLOADED_HEADING)) return;
      const tokens = input.blockTokens(b);
      if (tokens >= MIN_ATTACHED_TOKENS) found.push({ message, block, text: b.text, tokens });
    }),
  );
  return found.sort((a, b) => b.tokens - a.tokens);
}

const OFFLOADED_HEADING = `## Offloaded: ${ATTACHED_CONTEXT}`;
