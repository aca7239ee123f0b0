/**
 * Summarizing input larger than a summarizer's window (design §4.2: chunked summaries): the body is
 * split into consecutive chunks that fit, each chunk is summarized, and the summaries are
 * combined by summarizing them in turn, until one call takes everything. It always ends: when
 * combining stops shrinking the text, or after {@link MAX_COMBINE_ROUNDS}, the summaries are cut
 * to fit one last call.
 */
import { throwIfCancelled, type Cancellation } from '../cancellation';
import type { ToolResultBlock } from '../types';
import { planChunks } from './chunkPieces';
import { fitsWithin, outputReserve, withFittingGuide } from './promptBudget';
import { SummaryWindowTooSmallError } from './summaryErrors';
import { cutPartsToFit, labelParts, withParts } from './summaryParts';
import { buildSummaryPrompt, promptParts } from './summaryPrompt';
import { conversationQuestion, conversationTokens } from './conversationSummary';
import type { Summarizer, SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';

/**
 * Smallest target given to one chunk's summary.
 * @default 100 — a few lines; less leaves a chunk summary nothing to say.
 */
export const MIN_CHUNK_TARGET_TOKENS = 100;

/**
 * Most rounds of combining before the summaries are cut to fit.
 * @default 6 — each round divides the text by about the number of chunks, so real inputs need one or two.
 */
export const MAX_COMBINE_ROUNDS = 6;

/**
 * Another round of combining is worth it only if the summaries are at most this share of what they summarize.
 * @default 0.9
 */
export const MIN_SHRINK = 0.9;

/** What chunked summarizing needs besides the summarizer. */
export interface ChunkingDeps {
  readonly countText: CountText;
  readonly cancellation: Cancellation;
}

/**
 * The summary of `request` by `summarizer`, in one call when its prompt fits the summarizer's
 * window with room for `targetTokens` of answer, in chunks otherwise.
 * @throws CancelledError when `deps.cancellation` is tripped (checked around every call)
 * @throws SummaryWindowTooSmallError when the window cannot hold the instructions and a few lines
 */
export async function summarizeInChunks(summarizer: Summarizer, request: SummaryRequest, deps: ChunkingDeps): Promise<string> {
  const { countText, cancellation } = deps;
  const window = summarizer.maxInputTokens;
  // A summarizer without a window (the deterministic one) takes any input in one call: no prompt to measure.
  if (window >= Number.MAX_SAFE_INTEGER) {
    throwIfCancelled(cancellation, 'Summarizing');
    const text = await summarizer.summarize(request, cancellation);
    throwIfCancelled(cancellation, 'Summarizing');
    return text;
  }
  const promptTokens = window - outputReserve(request.targetTokens, window);
  const inConversation = await conversationAsked(summarizer, request, promptTokens, countText);
  if (inConversation !== undefined) {
    throwIfCancelled(cancellation, 'Summarizing');
    const text = await inConversation(cancellation);
    throwIfCancelled(cancellation, 'Summarizing');
    return text;
  }
  const call = async (req: SummaryRequest): Promise<string> => {
    throwIfCancelled(cancellation, 'Summarizing');
    const text = await summarizer.summarize(req, cancellation);
    throwIfCancelled(cancellation, 'Summarizing');
    return text;
  };
  const { lead, body } = promptParts(request);
  const result = body.flatMap((m) => m.blocks).find((b): b is ToolResultBlock => b.type === 'toolResult');

  let current = request;
  let shrinking = true;
  for (let round = 0; ; round++) {
    throwIfCancelled(cancellation, 'Summarizing');
    if (await fitsWithin(buildSummaryPrompt(current), promptTokens, countText)) return call(current);
    const fitted = await withFittingGuide(current, lead, promptTokens, countText);
    if (fitted === undefined) throw new SummaryWindowTooSmallError(summarizer.name, window);
    if (fitted.request !== current && (await fitsWithin(buildSummaryPrompt(fitted.request), promptTokens, countText))) {
      return call(fitted.request);
    }
    const currentBody = promptParts(fitted.request).body;
    if (round > 0 && (round >= MAX_COMBINE_ROUNDS || !shrinking)) {
      const texts = currentBody.flatMap((m) =>
        m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'toolResult' ? [b.content] : [])),
      );
      return call(await cutPartsToFit(fitted.request, lead, result, texts, { promptTokens, overhead: fitted.overhead }, countText));
    }

    const plan = await planChunks(
      summarizer,
      fitted.request,
      { lead, body: currentBody },
      { promptTokens, roomTokens: promptTokens - fitted.overhead },
      countText,
    );
    if (plan.chunks.length === 0) return call(fitted.request);
    const chunkTarget = Math.min(
      promptTokens,
      window - promptTokens,
      Math.max(MIN_CHUNK_TARGET_TOKENS, Math.min(request.targetTokens, Math.floor(window / (2 * plan.chunks.length)))),
    );
    const summaries: string[] = [];
    for (const chunk of plan.chunks) {
      summaries.push(await call({ ...fitted.request, messages: [...lead, ...chunk], targetTokens: chunkTarget }));
    }
    const texts = labelParts(summaries);
    let summaryTokens = 0;
    for (const text of texts) summaryTokens += await countText(text);
    shrinking = summaryTokens < plan.inputTokens * MIN_SHRINK;
    current = withParts({ ...fitted.request, targetTokens: request.targetTokens }, lead, result, texts);
  }
}

/**
 * The summary asked as the conversation's next request, when the summarizer is the conversation's model and the
 * conversation with the question fits its window; undefined otherwise.
 */
async function conversationAsked(
  summarizer: Summarizer,
  request: SummaryRequest,
  promptTokens: number,
  countText: CountText,
): Promise<((cancellation: Cancellation) => Promise<string>) | undefined> {
  const copy = request.conversation;
  const ask = summarizer.summarizeConversation;
  if (!copy || !ask || (request.kind ?? 'history') !== 'history') return undefined;
  const question = conversationQuestion(request, copy);
  if (!(await fitsWithin(question, promptTokens - conversationTokens(copy), countText))) return undefined;
  return (cancellation) => ask.call(summarizer, copy, question, cancellation);
}
