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
import { HUGE_USER_MESSAGE_TOKENS } from '../ledger/userMessageOffload';
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
  /** The budget: in a small one, a text is worth a file from {@link SMALL_BUDGET_FILE_SHARE} of it. */
  readonly budgetTokens?: number;
}

/** A text goes to a file from this many tokens: a huge message's size, or a tenth of a small budget. */
function worthAFile(input: FitInput): number {
  const budget = input.budgetTokens;
  if (budget === undefined || budget <= 0) return HUGE_USER_MESSAGE_TOKENS;
  return Math.min(HUGE_USER_MESSAGE_TOKENS, Math.max(MIN_FILE_TOKENS, Math.floor(budget * SMALL_BUDGET_FILE_SHARE)));
}

/** In a small budget, a text is worth a file from this share of it. @default 0.1 */
const SMALL_BUDGET_FILE_SHARE = 0.1;
/** Below this many tokens a text's preview and path would take about as much room as the text. */
const MIN_FILE_TOKENS = 200;

interface Candidate {
  readonly message: number;
  readonly block: number;
  readonly tokens: number;
  /** For a tool call: the input field whose text goes to the file. */
  readonly key?: string;
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
    { of: callInputs(input), until: input.excessTokens },
    { of: agentTexts(input), until: input.excessTokens },
    { of: userTexts(input), until: input.overBudgetTokens },
    // Still over: smaller results too (a round of many short ones), until the request fits at all.
    { of: results(input, MIN_FILE_TOKENS), until: input.overBudgetTokens },
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

/** Writes one block to a file and puts its preview in its place in `messages`. */
async function offloadBlock(
  messages: Message[],
  c: Candidate,
  input: FitInput,
): Promise<{ readonly record: OffloadRecord } | { readonly failure: string }> {
  const message = messages[c.message];
  const block = message.blocks[c.block];
  const result = block.type === 'toolResult' ? block : undefined;
  const call = block.type === 'toolCall' && c.key !== undefined ? block : undefined;
  const given = call && c.key !== undefined ? call.input[c.key] : undefined;
  const text = result ? result.content : typeof given === 'string' ? given : block.type === 'text' ? block.text : '';
  const own = message.role === 'assistant' ? AGENT_TEXT : USER_TEXT;
  const toolName = result ? (result.toolName ?? toolNameOf(messages, result.callId)) : call ? `${call.name} input` : own;
  const id = result ? result.callId : call ? `${call.id}#${c.key}` : `${message.id}#text-${c.block}`;
  let offloaded;
  try {
    offloaded = await offloadText(
      text,
      {
        toolName,
        id,
        isError: result?.isError ?? false,
        ...(result
          ? {}
          : { heading: call ? `${toolName} (${c.key}) too large for the window` : `${own} of a message too large for the window` }),
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
  const replaced: Block = result
    ? { ...result, content: offloaded.replacement }
    : call && c.key !== undefined
      ? { ...call, input: { ...call.input, [c.key]: offloaded.replacement } }
      : { type: 'text', text: offloaded.replacement };
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
function results(input: FitInput, minTokens = KEEP_STRUCTURED_BELOW_TOKENS): Candidate[] {
  return candidates(input, (b) => b.type === 'toolResult' && !input.offloadedCallIds.has(b.callId), minTokens);
}

/** The longest text field of each tool call, when it is of a huge message's size, the largest first. */
function callInputs(input: FitInput): Candidate[] {
  const found: Candidate[] = [];
  input.active.forEach((m, message) =>
    m.blocks.forEach((b, block) => {
      if (b.type !== 'toolCall') return;
      const longest = Object.entries(b.input)
        .filter((e): e is [string, string] => typeof e[1] === 'string')
        .sort((x, y) => y[1].length - x[1].length)[0];
      if (longest === undefined || input.offloadedCallIds.has(`${b.id}#${longest[0]}`)) return;
      const tokens = input.blockTokens({ type: 'text', text: longest[1] });
      if (tokens >= worthAFile(input)) found.push({ message, block, tokens, key: longest[0] });
    }),
  );
  return found.sort((a, b) => b.tokens - a.tokens);
}

/** What the agent wrote, in blocks of a huge message's size, the largest first. */
function agentTexts(input: FitInput): Candidate[] {
  return candidates(input, (b, m) => m.role === 'assistant' && b.type === 'text', worthAFile(input));
}

/** What the user typed, in blocks of a huge message's size, the largest first. */
function userTexts(input: FitInput): Candidate[] {
  return candidates(input, (b, m) => m.role === 'user' && b.type === 'text' && b.injected !== true, worthAFile(input));
}

function candidates(input: FitInput, take: (b: Block, m: Message) => boolean, minTokens: number): Candidate[] {
  const found: Candidate[] = [];
  input.active.forEach((m, message) =>
    m.blocks.forEach((b, block) => {
      // A text that went to a file already is its preview now.
      if (!take(b, m) || (b.type === 'text' && input.offloadedCallIds.has(`${m.id}#text-${block}`))) return;
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
