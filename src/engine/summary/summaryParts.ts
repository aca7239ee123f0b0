/**
 * The request that combines chunk summaries: each summary becomes one message, "Summary of part
 * i of n", in place of the body it summarized; and, when combining would not shrink the text any
 * more, the same request with the summaries cut so that its prompt fits in one call.
 */
import { message, textBlock, toolResultBlock, type Message, type ToolResultBlock } from '../types';
import { ESTIMATE_SAFETY } from './fitLines';
import { fitsWithin } from './promptBudget';
import { shortenMiddle } from '../text/shorten';
import { buildSummaryPrompt } from './summaryPrompt';
import type { SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';

/**
 * Attempts at cutting the summaries, each 20% shorter than the one before.
 * @default 24 — from the estimate down to about 0.5% of it, where only the notes are left.
 */
export const MAX_CUT_ATTEMPTS = 24;

/** A cut summary keeps at least this many characters, or all of them are joined and cut as one. @default 120 */
export const MIN_PART_CHARS = 120;

/** The labelled texts of the parts. */
export function labelParts(summaries: readonly string[]): string[] {
  return summaries.map((summary, i) => `Summary of part ${i + 1} of ${summaries.length}\n\n${summary}`);
}

/**
 * `request` with its body replaced by one message per text: assistant text for history, results
 * of the same call for a tool result (so the prompt still shows them as the result).
 */
export function withParts(
  request: SummaryRequest,
  lead: readonly Message[],
  result: ToolResultBlock | undefined,
  texts: readonly string[],
): SummaryRequest {
  const body = texts.map((text, i) =>
    (request.kind ?? 'history') === 'toolResult' && result !== undefined
      ? message(`${result.callId}#part-${i + 1}`, 'tool', [toolResultBlock(result.callId, text, result.isError, result.toolName)])
      : message(`summary-part-${i + 1}`, 'assistant', [textBlock(text)]),
  );
  return { ...request, messages: [...lead, ...body] };
}

/**
 * The combining request with each part cut in the middle, all by the same share, so its prompt
 * takes at most `limit` tokens; when the parts get too short to be worth showing, their joined
 * text is cut instead. `overhead` is the prompt's size without parts, which must leave room.
 */
export async function cutPartsToFit(
  request: SummaryRequest,
  lead: readonly Message[],
  result: ToolResultBlock | undefined,
  texts: readonly string[],
  limits: { readonly promptTokens: number; readonly overhead: number },
  countText: CountText,
): Promise<SummaryRequest> {
  const joined = texts.join('\n\n');
  const joinedTokens = Math.max(1, await countText(joined));
  let chars = Math.max(0, limits.promptTokens - limits.overhead) * (joined.length / joinedTokens) * ESTIMATE_SAFETY;
  for (let attempt = 0; attempt < MAX_CUT_ATTEMPTS; attempt++, chars *= 0.8) {
    const perPart = Math.floor(chars / texts.length);
    const cut = perPart >= MIN_PART_CHARS ? texts.map((t) => shortenMiddle(t, perPart)) : [shortenMiddle(joined, Math.floor(chars))];
    const candidate = withParts(request, lead, result, cut);
    if (await fitsWithin(buildSummaryPrompt(candidate), limits.promptTokens, countText)) return candidate;
  }
  return withParts(request, lead, result, [shortenMiddle(joined, 0)]);
}
