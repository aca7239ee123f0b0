/**
 * Dividing the body of a summary request into consecutive chunks whose prompts each fit a
 * summarizer's window. A message too large for one chunk is split into pieces by characters.
 * Each message is counted once; each chunk's whole prompt is checked once and halved if the
 * estimate was off.
 */
import { message, textBlock, toolResultBlock, type Block, type Message } from '../types';
import { fitsWithin, LIKELY_MAX_CHARS_PER_TOKEN } from './promptBudget';
import { shortenMiddle } from '../text/shorten';
import { SummaryWindowTooSmallError } from './summaryErrors';
import { DEFAULT_TOOL_INPUT_CHARS, toolNamesOf } from './summaryInput';
import { buildSummaryPrompt, renderBodyMessage, resultCharsShown } from './summaryPrompt';
import type { Summarizer, SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';

/**
 * Share of a chunk's room filled by estimates, since token counts of joined texts are not exactly
 * the sum of their parts. @default 0.9
 */
export const CHUNK_FILL = 0.9;

/** Smallest piece a message is split into, in characters. @default 100 */
export const MIN_PIECE_CHARS = 100;

/** Tokens the blank line between two messages costs. @default 1 */
const SEPARATOR_TOKENS = 1;

/** How a body is divided for summarizing. */
export interface ChunkPlan {
  /** The body's messages (or pieces of them), in order, chunk by chunk. */
  readonly chunks: readonly (readonly Message[])[];
  /** Tokens of the body as the chunks render it. */
  readonly inputTokens: number;
}

/** The token limits a chunk must respect. */
export interface ChunkLimits {
  /** Most tokens one chunk's whole prompt may take. */
  readonly promptTokens: number;
  /** Tokens left for the body once the instructions, guide and lead are in. */
  readonly roomTokens: number;
}

/**
 * Chunks of `body` for `request` (its guide already fitted), each prompt within `limits.promptTokens`
 * once `lead` is added.
 * @throws SummaryWindowTooSmallError when a piece of {@link MIN_PIECE_CHARS} still does not fit
 */
export async function planChunks(
  summarizer: Summarizer,
  request: SummaryRequest,
  parts: { readonly lead: readonly Message[]; readonly body: readonly Message[] },
  limits: ChunkLimits,
  countText: CountText,
): Promise<ChunkPlan> {
  const names = toolNamesOf([...parts.lead, ...parts.body]);
  const room = limits.roomTokens * CHUNK_FILL;
  const tooSmall = () => new SummaryWindowTooSmallError(summarizer.name, summarizer.maxInputTokens);
  const resultCap = resultCharsShown(request);
  /** The message in pieces of at most `maxChars`, or a throw when it cannot be split any further. */
  const split = (msg: Message, maxChars: number): Message[] => {
    const pieces = messageChars(msg, resultCap) <= MIN_PIECE_CHARS ? [] : splitMessage(msg, Math.max(MIN_PIECE_CHARS, maxChars), resultCap);
    if (pieces.length < 2) throw tooSmall();
    return pieces;
  };

  const sized: { msg: Message; tokens: number }[] = [];
  const size = async (msg: Message): Promise<void> => {
    const text = renderBodyMessage(request, msg, names);
    const tokens = text.length > room * LIKELY_MAX_CHARS_PER_TOKEN ? Number.POSITIVE_INFINITY : await countText(text);
    if (tokens <= room) {
      sized.push({ msg, tokens });
      return;
    }
    const chars = messageChars(msg, resultCap);
    const ratio = Number.isFinite(tokens) ? room / tokens : 1 / LIKELY_MAX_CHARS_PER_TOKEN;
    for (const piece of split(msg, Math.min(Math.floor(chars / 2), Math.floor(chars * ratio * CHUNK_FILL)))) await size(piece);
  };
  for (const msg of parts.body) await size(msg);

  const packed: Message[][] = [];
  let current: Message[] = [];
  let used = 0;
  for (const { msg, tokens } of sized) {
    if (current.length > 0 && used + tokens + SEPARATOR_TOKENS > room) {
      packed.push(current);
      current = [];
      used = 0;
    }
    current.push(msg);
    used += tokens + SEPARATOR_TOKENS;
  }
  if (current.length > 0) packed.push(current);

  const chunks: Message[][] = [];
  const verify = async (chunk: Message[]): Promise<void> => {
    const prompt = buildSummaryPrompt({ ...request, messages: [...parts.lead, ...chunk] });
    if (await fitsWithin(prompt, limits.promptTokens, countText)) {
      chunks.push(chunk);
      return;
    }
    if (chunk.length > 1) {
      const half = Math.ceil(chunk.length / 2);
      await verify(chunk.slice(0, half));
      await verify(chunk.slice(half));
      return;
    }
    for (const piece of split(chunk[0], Math.floor(messageChars(chunk[0], resultCap) / 2))) await verify([piece]);
  };
  for (const chunk of packed) await verify(chunk);
  return { chunks, inputTokens: sized.reduce((n, s) => n + s.tokens + SEPARATOR_TOKENS, 0) };
}

/** Characters of a message as a prompt shows it: text, result content up to `resultCap`, call name and input. */
function messageChars(msg: Message, resultCap: number): number {
  return msg.blocks.reduce((n, b) => n + blockChars(b, resultCap), 0);
}

function blockChars(block: Block, resultCap: number): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'toolResult':
      return Math.min(block.content.length, resultCap);
    case 'toolCall':
      return block.name.length + Math.min((JSON.stringify(block.input) ?? '').length, DEFAULT_TOOL_INPUT_CHARS);
  }
}

/**
 * A message as pieces of at most about `maxChars` characters each, same role, ids `<id>#1`, `<id>#2`…
 * Texts and results are cut into slices (a result first to the `resultCap` characters the prompt
 * shows of it); a tool call stays whole in the piece it falls in.
 */
export function splitMessage(msg: Message, maxChars: number, resultCap = Number.POSITIVE_INFINITY): Message[] {
  const slices: { block: Block; chars: number }[] = [];
  for (const block of msg.blocks) {
    if (block.type === 'text') {
      for (const text of sliceText(block.text, maxChars)) slices.push({ block: textBlock(text), chars: text.length });
    } else if (block.type === 'toolResult') {
      const shown = block.content.length > resultCap ? shortenMiddle(block.content, resultCap) : block.content;
      for (const content of sliceText(shown, maxChars)) {
        slices.push({ block: toolResultBlock(block.callId, content, block.isError, block.toolName), chars: content.length });
      }
    } else slices.push({ block, chars: blockChars(block, resultCap) });
  }
  const pieces: Block[][] = [];
  let current: Block[] = [];
  let used = 0;
  for (const { block, chars } of slices) {
    if (current.length > 0 && used + chars > maxChars) {
      pieces.push(current);
      current = [];
      used = 0;
    }
    current.push(block);
    used += chars;
  }
  if (current.length > 0) pieces.push(current);
  return pieces.map((blocks, i) => message(`${msg.id}#${i + 1}`, msg.role, blocks, msg.at));
}

/** Consecutive slices of at most `maxChars` characters, never splitting a surrogate pair. */
function sliceText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const slices: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + Math.max(2, maxChars));
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    slices.push(text.slice(start, end));
    start = end;
  }
  return slices;
}
