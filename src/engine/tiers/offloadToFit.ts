/**
 * The last step before a request the model would refuse. When the context is still over the budget
 * after the checkpoint and after attached context left, the live messages themselves are too large: a
 * round of tool results each below the offload threshold, or a text the user pasted that is larger than
 * the window (what a caller sends when it was told a larger window than the model's). Their largest
 * blocks go to files by tier 1's own mechanism (a preview and the path, `ctx_read_offloaded`) until
 * the context is below RED: tool results first, being data; then the longest text a tool call was
 * given (a whole file written) and the agent's own longest texts (an answer that quotes whole files);
 * the user's own text only when those are not enough, and then its first lines stay. The archive
 * keeps every block as it arrived.
 */
import { errorMessage } from '../errors';
import { MIN_FILE_TOKENS, worthAFileTokens } from '../ledger/userMessageOffload';
import type { OffloadRecord } from '../model/offloadRecord';
import type { Block, Message } from '../types';
import { KEEP_STRUCTURED_BELOW_TOKENS, offloadText } from './offload';
import type { AttachmentOffload, AttachmentOffloadInput } from './offloadAttachments';

/** How the user's own text is named, in files, records and the tree, when it had to go to a file. */
export const USER_TEXT = 'user text';
/** How the agent's own text is named when it had to go to a file. */
export const AGENT_TEXT = 'agent text';

export interface FitInput extends AttachmentOffloadInput {
  /** The tool results already offloaded: their blocks are previews. */
  readonly offloadedCallIds: ReadonlySet<string>;
  /** At least this many tokens must leave for the request to fit the budget at all; `excessTokens` bring it below RED. */
  readonly overBudgetTokens: number;
  /** The budget: in a small one, a text is worth a file from a tenth of it (`worthAFileTokens`). */
  readonly budgetTokens?: number;
}

/** A text goes to a file from this many tokens: a huge message's size, or a tenth of a small budget. */
function worthAFile(input: FitInput): number {
  return worthAFileTokens(input.budgetTokens);
}

/** A block, or a tool call's text field, that may go to a file: where it stands, what it holds, and its place taker. */
interface Candidate {
  readonly message: number;
  readonly block: number;
  readonly tokens: number;
  readonly text: string;
  /** How the file, its record and the tree name it. */
  readonly name: string;
  /** The record's id: a result's call id, or the place of a text. */
  readonly id: string;
  readonly isError: boolean;
  /** The preview's heading, for what is not a tool's result. */
  readonly heading?: string;
  /** The block with the preview in place of the text. */
  replaced(preview: string): Block;
}

/** Offloads the largest live blocks, tool results first and what the user typed last, until the request fits. */
export async function offloadToFit(input: FitInput): Promise<AttachmentOffload> {
  if (input.overBudgetTokens <= 0) return { messages: input.active, records: [], failures: [] };
  const messages = [...input.active];
  const records: OffloadRecord[] = [];
  const failures: string[] = [];
  let saved = 0;
  const worth = worthAFile(input);
  // The user's words go only when the results, the calls' texts and the agent's own are not enough.
  const passes = [
    { of: candidates(input, resultOf(input), KEEP_STRUCTURED_BELOW_TOKENS), until: input.excessTokens },
    { of: candidates(input, callTextOf(input), worth), until: input.excessTokens },
    { of: candidates(input, ownTextOf(input, 'assistant'), worth), until: input.excessTokens },
    { of: candidates(input, ownTextOf(input, 'user'), worth), until: input.overBudgetTokens },
    // Still over: smaller results too (a round of many short ones), until the request fits at all.
    { of: candidates(input, resultOf(input), MIN_FILE_TOKENS), until: input.overBudgetTokens },
  ];
  const taken = new Set<string>();
  for (const pass of passes) {
    for (const c of pass.of) {
      if (saved >= pass.until) break;
      // A block an earlier pass sent to a file is its preview now.
      if (taken.has(`${c.message}:${c.block}`)) continue;
      taken.add(`${c.message}:${c.block}`);
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

/** Writes one candidate's text to a file and puts its preview in its place in `messages`. */
async function offloadBlock(
  messages: Message[],
  c: Candidate,
  input: FitInput,
): Promise<{ readonly record: OffloadRecord } | { readonly failure: string }> {
  const message = messages[c.message];
  let offloaded;
  try {
    const source = { toolName: c.name, id: c.id, isError: c.isError, ...(c.heading ? { heading: c.heading } : {}) };
    offloaded = await offloadText(c.text, source, c.tokens, input.now, input.target);
  } catch (e) {
    return {
      failure: `The ${c.name} of message ${message.id} could not be written to a file (${errorMessage(e)}); it stays in the context.`,
    };
  }
  const savedTokens = Math.max(0, c.tokens - (await input.countText(offloaded.replacement)));
  const replaced = c.replaced(offloaded.replacement);
  messages[c.message] = { ...message, blocks: message.blocks.map((b, i) => (i === c.block ? replaced : b)) };
  return {
    record: {
      callId: c.id,
      toolName: c.name,
      file: offloaded.file,
      tokens: c.tokens,
      savedTokens,
      kind: offloaded.kind,
      isError: c.isError,
      at: input.now,
      estimated: input.estimated,
    },
  };
}

/** What may go to a file of one block of a message, or nothing. */
type Picker = (block: Block, message: Message, index: number) => Omit<Candidate, 'message' | 'block'> | undefined;

/** Tool results not offloaded yet. */
function resultOf(input: FitInput): Picker {
  return (b) =>
    b.type !== 'toolResult' || input.offloadedCallIds.has(b.callId)
      ? undefined
      : {
          tokens: input.blockTokens(b),
          text: b.content,
          name: b.toolName ?? toolNameOf(input.active, b.callId),
          id: b.callId,
          isError: b.isError,
          replaced: (preview) => ({ ...b, content: preview }),
        };
}

/** The longest text field of a tool call (a whole file written), not offloaded yet. */
function callTextOf(input: FitInput): Picker {
  return (b) => {
    if (b.type !== 'toolCall') return undefined;
    const longest = Object.entries(b.input)
      .filter((e): e is [string, string] => typeof e[1] === 'string')
      .sort((x, y) => y[1].length - x[1].length)[0];
    if (longest === undefined) return undefined;
    const [key, text] = longest;
    const id = `${b.id}#${key}`;
    if (input.offloadedCallIds.has(id)) return undefined;
    const name = `${b.name} input`;
    return {
      tokens: input.blockTokens({ type: 'text', text }),
      text,
      name,
      id,
      isError: false,
      heading: `${name} (${key}) too large for the window`,
      replaced: (preview) => ({ ...b, input: { ...b.input, [key]: preview } }),
    };
  };
}

/** What the agent wrote, or what the user typed (never text injected into the user's turn), not offloaded yet. */
function ownTextOf(input: FitInput, role: 'assistant' | 'user'): Picker {
  const name = role === 'assistant' ? AGENT_TEXT : USER_TEXT;
  return (b, m, index) => {
    const id = `${m.id}#text-${index}`;
    if (m.role !== role || b.type !== 'text' || input.offloadedCallIds.has(id)) return undefined;
    if (role === 'user' && b.injected === true) return undefined;
    return {
      tokens: input.blockTokens(b),
      text: b.text,
      name,
      id,
      isError: false,
      heading: `${name} of a message too large for the window`,
      replaced: (preview) => ({ type: 'text', text: preview }),
    };
  };
}

/** The candidates `pick` finds in the live messages, of at least `minTokens`, the largest first. */
function candidates(input: FitInput, pick: Picker, minTokens: number): Candidate[] {
  const found: Candidate[] = [];
  input.active.forEach((m, message) =>
    m.blocks.forEach((b, block) => {
      const picked = pick(b, m, block);
      if (picked && picked.tokens >= minTokens) found.push({ ...picked, message, block });
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
