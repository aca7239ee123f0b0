/**
 * The last step before a request the model would refuse. When the context is still over the budget
 * after the checkpoint and after attached context left, the live messages themselves are too large: a
 * round of tool results each below the offload threshold, or a text the user pasted that is larger than
 * the window (what a caller sends when it was told a larger window than the model's). Their largest
 * blocks go to files by tier 1's own mechanism (a preview and the path, `ctx_read_offloaded`) until
 * the context is below RED: tool results first, being data; the user's own text only when the results
 * are not enough, and then its first lines stay. The archive keeps every block as it arrived.
 */
import { errorMessage } from '../errors';
import { HUGE_USER_MESSAGE_TOKENS } from '../ledger/userMessageOffload';
import type { OffloadRecord } from '../model/offloadRecord';
import type { Block, Message } from '../types';
import { KEEP_STRUCTURED_BELOW_TOKENS, offloadText } from './offload';
import type { AttachmentOffload, AttachmentOffloadInput } from './offloadAttachments';

/** How the user's own text is named, in files, records and the tree, when it had to go to a file. */
export const USER_TEXT = 'user text';

export interface FitInput extends AttachmentOffloadInput {
  /** The tool results already offloaded: their blocks are previews. */
  readonly offloadedCallIds: ReadonlySet<string>;
  /** At least this many tokens must leave for the request to fit the budget at all; `excessTokens` bring it below RED. */
  readonly overBudgetTokens: number;
}

interface Candidate {
  readonly message: number;
  readonly block: number;
  readonly tokens: number;
}

/** Offloads the largest tool results of the live messages, then the user's longest texts if need be, until the request fits. */
export async function offloadToFit(input: FitInput): Promise<AttachmentOffload> {
  if (input.overBudgetTokens <= 0) return { messages: input.active, records: [], failures: [] };
  const messages = [...input.active];
  const records: OffloadRecord[] = [];
  const failures: string[] = [];
  let saved = 0;
  // The user's words go only when the results alone cannot make the request fit.
  const passes = [
    { of: results(input), until: input.excessTokens },
    { of: userTexts(input), until: input.overBudgetTokens },
  ];
  for (const pass of passes) {
    for (const c of pass.of) {
      if (saved >= pass.until) break;
      const done = await offloadBlock(messages, c, input);
      if ('failure' in done) failures.push(done.failure);
      else {
        saved += done.record.savedTokens;
        records.push(done.record);
      }
    }
  }
  return { messages: records.length > 0 ? messages : input.active, records, failures };
}

/** Writes one block to a file and puts its preview in its place in `messages`. */
async function offloadBlock(
  messages: Message[],
  c: Candidate,
  input: FitInput,
): Promise<{ readonly record: OffloadRecord } | { readonly failure: string }> {
  const message = messages[c.message];
  const block = message.blocks[c.block];
  const result = block.type === 'toolResult' ? block : undefined;
  const text = result ? result.content : block.type === 'text' ? block.text : '';
  const toolName = result ? (result.toolName ?? toolNameOf(messages, result.callId)) : USER_TEXT;
  const id = result ? result.callId : `${message.id}#text-${c.block}`;
  let offloaded;
  try {
    offloaded = await offloadText(
      text,
      {
        toolName,
        id,
        isError: result?.isError ?? false,
        ...(result ? {} : { heading: `${USER_TEXT} of a message too large for the window` }),
      },
      c.tokens,
      input.now,
      input.target,
    );
  } catch (e) {
    return {
      failure: `The ${toolName} of message ${message.id} could not be written to a file (${errorMessage(e)}); it stays in the context.`,
    };
  }
  const savedTokens = Math.max(0, c.tokens - (await input.countText(offloaded.replacement)));
  const replaced: Block = result ? { ...result, content: offloaded.replacement } : { type: 'text', text: offloaded.replacement };
  messages[c.message] = { ...message, blocks: message.blocks.map((b, i) => (i === c.block ? replaced : b)) };
  return {
    record: {
      callId: id,
      toolName,
      file: offloaded.file,
      tokens: c.tokens,
      savedTokens,
      kind: offloaded.kind,
      isError: result?.isError ?? false,
      at: input.now,
      estimated: input.estimated,
    },
  };
}

/** Tool results not offloaded yet and large enough to be worth a file, the largest first. */
function results(input: FitInput): Candidate[] {
  return candidates(input, (b) => b.type === 'toolResult' && !input.offloadedCallIds.has(b.callId), KEEP_STRUCTURED_BELOW_TOKENS);
}

/** What the user typed, in blocks of a huge message's size, the largest first. */
function userTexts(input: FitInput): Candidate[] {
  return candidates(input, (b, m) => m.role === 'user' && b.type === 'text' && b.injected !== true, HUGE_USER_MESSAGE_TOKENS);
}

function candidates(input: FitInput, take: (b: Block, m: Message) => boolean, minTokens: number): Candidate[] {
  const found: Candidate[] = [];
  input.active.forEach((m, message) =>
    m.blocks.forEach((b, block) => {
      if (!take(b, m)) return;
      const tokens = input.blockTokens(b);
      if (tokens >= minTokens) found.push({ message, block, tokens });
    }),
  );
  return found.sort((a, b) => b.tokens - a.tokens);
}

/** The name of the tool whose call `callId` answers, from the messages. */
function toolNameOf(messages: readonly Message[], callId: string): string {
  for (const m of messages) {
    for (const b of m.blocks) if (b.type === 'toolCall' && b.id === callId) return b.name;
  }
  return 'tool';
}
