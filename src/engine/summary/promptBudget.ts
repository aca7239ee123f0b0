/**
 * Sizing summary prompts against a summarizer's input window: whether a prompt fits, how much of
 * the window the answer needs, and a guide small enough to leave room for the conversation.
 */
import { buildSummaryPrompt } from './summaryPrompt';
import { shortenEnd, shortenMiddle } from '../text/shorten';
import type { SummaryGuide, SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';

/**
 * Upper bound of tokens per UTF-16 unit: byte-level BPE never makes more tokens than UTF-8 bytes,
 * and one UTF-16 unit is at most 3 bytes. A prompt short enough under this bound needs no count.
 */
export const MAX_TOKENS_PER_CHAR = 3;

/**
 * Characters per token beyond which a prompt is taken as too long without counting it.
 * @default 16 — four times what prose or code averages; counting megabytes only to learn they do
 * not fit costs seconds, and a wrong guess only splits into more chunks.
 */
export const LIKELY_MAX_CHARS_PER_TOKEN = 16;

/**
 * Least room, in tokens, a chunk prompt must leave for the conversation.
 * @default 50 — a few lines; below that the summarizer cannot make progress.
 */
export const MIN_MESSAGE_ROOM_TOKENS = 50;

/** Tokens of the window kept for the answer: the target, but never more than half the window. */
export function outputReserve(targetTokens: number, window: number): number {
  return Math.max(0, Math.min(targetTokens, Math.floor(window / 2)));
}

/** Whether `text` takes at most `limit` tokens; counts only when its length alone does not settle it. */
export async function fitsWithin(text: string, limit: number, countText: CountText): Promise<boolean> {
  if (text.length * MAX_TOKENS_PER_CHAR <= limit) return true;
  if (text.length > limit * LIKELY_MAX_CHARS_PER_TOKEN) return false;
  return (await countText(text)) <= limit;
}

/**
 * The request with its facts left out, then its guide shortened, until its prompt without
 * messages takes at most half of `limit`, and that prompt's tokens; `undefined` when even an
 * empty guide leaves less than {@link MIN_MESSAGE_ROOM_TOKENS}.
 */
export async function withFittingGuide(
  request: SummaryRequest,
  lead: SummaryRequest['messages'],
  limit: number,
  countText: CountText,
): Promise<{ request: SummaryRequest; overhead: number } | undefined> {
  let overhead = await countText(buildSummaryPrompt({ ...request, messages: lead }));
  if (overhead <= limit / 2) return { request, overhead };
  // The facts listed for the model go first: the recall check puts back what a summary drops.
  const withoutFacts: SummaryRequest = request.facts !== undefined && request.facts.length > 0 ? { ...request, facts: [] } : request;
  const overheadOf = async (guide: SummaryGuide) => countText(buildSummaryPrompt({ ...withoutFacts, guide, messages: lead }));
  if (withoutFacts !== request) {
    overhead = await overheadOf(request.guide);
    if (overhead <= limit / 2) return { request: withoutFacts, overhead };
  }
  for (let scale = 0.5; scale > 1 / 1024; scale /= 2) {
    const guide = shrinkGuide(request.guide, scale);
    overhead = await overheadOf(guide);
    if (overhead <= limit / 2) return { request: { ...withoutFacts, guide }, overhead };
  }
  const empty: SummaryGuide = { intent: shortenMiddle(request.guide.intent, 0), goals: [], decisions: [], progress: [] };
  overhead = await overheadOf(empty);
  return overhead + MIN_MESSAGE_ROOM_TOKENS <= limit ? { request: { ...withoutFacts, guide: empty }, overhead } : undefined;
}

/** The guide at `scale` of its size: the intent cut in the middle, the latest items of each list, each shortened. */
function shrinkGuide(guide: SummaryGuide, scale: number): SummaryGuide {
  const itemChars = Math.max(40, Math.floor(200 * scale));
  const keep = (items: readonly string[], fromEnd: boolean) => {
    const count = Math.max(1, Math.floor(items.length * scale));
    return (fromEnd ? items.slice(-count) : items.slice(0, count)).map((item) => shortenEnd(item, itemChars));
  };
  return {
    intent: shortenMiddle(guide.intent, Math.floor(guide.intent.length * scale)),
    goals: keep(guide.goals, false),
    decisions: keep(guide.decisions, true),
    progress: keep(guide.progress, true),
    ...(guide.nextStep !== undefined ? { nextStep: shortenEnd(guide.nextStep, itemChars) } : {}),
  };
}
