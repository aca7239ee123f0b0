/**
 * Model first, deterministic floor always: the model summarizes when the circuit breaker allows
 * it, within a time limit; when it fails, is too slow or returns garbage, the floor summarizes
 * instead and the reason is said in plain words. Only the user's cancellation stops the work.
 */
import { CancellationSource, CancelledError, throwIfCancelled, type Cancellation } from '../cancellation';
import type { Disposable } from '../events';
import { summarizeInChunks } from './chunkedSummary';
import type { CircuitBreaker } from './circuitBreaker';
import { oneLine, shortenEnd } from '../text/shorten';
import { SummaryWindowTooSmallError } from './summaryErrors';
import { garbageReason } from './summaryQuality';
import type { Summarizer, SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';

/**
 * How long the model may take for one summary, chunks included.
 * @default 60000 — a checkpoint summary of ~1200 tokens takes a model seconds; a minute means it is stuck.
 */
export const SUMMARY_TIMEOUT_MS = 60_000;

/** Longest error message quoted in a fallback reason, in characters. @default 200 */
export const MAX_QUOTED_ERROR_CHARS = 200;

/** A summary and who wrote it. */
export interface ResilientSummary {
  readonly text: string;
  /** The summarizer's name: the model's, or "deterministic". */
  readonly summarizedBy: string;
  /** Why the model's summary was not used, when a model was there and was not used. */
  readonly fallbackReason?: string;
}

/** The summarizers and services a resilient summary uses. */
export interface ResilientSummaryDeps {
  /** The model summarizer, when one is available. */
  readonly primary?: Summarizer;
  /** The deterministic floor; it never fails for length. */
  readonly floor: Summarizer;
  readonly breaker: CircuitBreaker;
  readonly countText: CountText;
  /** The user's cancellation: it stops everything, with no fallback. */
  readonly cancellation: Cancellation;
  /** @default 60000 */
  readonly timeoutMs?: number;
}

type Attempt = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * The summary of `request` by the primary if it can, by the floor otherwise.
 * @throws CancelledError when `deps.cancellation` is tripped
 */
export async function summarizeResiliently(request: SummaryRequest, deps: ResilientSummaryDeps): Promise<ResilientSummary> {
  throwIfCancelled(deps.cancellation);
  let fallbackReason: string | undefined;
  if (deps.primary !== undefined) {
    if (deps.breaker.allows()) {
      const attempt = await attemptPrimary(deps.primary, request, deps);
      if (attempt.ok) {
        deps.breaker.recordSuccess();
        return { text: attempt.text, summarizedBy: deps.primary.name };
      }
      deps.breaker.recordFailure();
      fallbackReason = attempt.reason;
    } else {
      fallbackReason = `the model failed ${deps.breaker.consecutiveFailures} times in a row, so it is skipped for ${formatDuration(deps.breaker.retryInMs)}`;
    }
  }
  const text = await summarizeInChunks(deps.floor, request, { countText: deps.countText, cancellation: deps.cancellation });
  return fallbackReason === undefined ? { text, summarizedBy: deps.floor.name } : { text, summarizedBy: deps.floor.name, fallbackReason };
}

/** One try of the primary: its summary, or why it cannot be used. A timed-out call is abandoned and cancelled. */
async function attemptPrimary(primary: Summarizer, request: SummaryRequest, deps: ResilientSummaryDeps): Promise<Attempt> {
  const timeoutMs = deps.timeoutMs ?? SUMMARY_TIMEOUT_MS;
  const source = new CancellationSource(deps.cancellation);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let subscription: Disposable | undefined;
  let settled = false;
  try {
    const work = summarizeInChunks(primary, request, { countText: deps.countText, cancellation: source.token }).then((text) => {
      settled = true;
      return { text };
    });
    work.catch(() => undefined);
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const cancelled = new Promise<'cancelled'>(
      (resolve) => (subscription = deps.cancellation.onCancellationRequested(() => resolve('cancelled'))),
    );
    let outcome: { text: string } | 'timeout' | 'cancelled';
    try {
      outcome = await Promise.race([work, timedOut, cancelled]);
    } catch (error) {
      settled = true;
      throwIfCancelled(deps.cancellation);
      return { ok: false, reason: failureReason(error) };
    }
    throwIfCancelled(deps.cancellation);
    if (outcome === 'cancelled') throw new CancelledError('Summarizing');
    if (outcome === 'timeout') return { ok: false, reason: `the model did not answer within ${formatDuration(timeoutMs)}` };
    const garbage = await garbageReason(outcome.text, request.targetTokens, deps.countText);
    return garbage === undefined ? { ok: true, text: outcome.text } : { ok: false, reason: garbage };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    subscription?.dispose();
    if (!settled) source.cancel();
    source.dispose();
  }
}

function failureReason(error: unknown): string {
  if (error instanceof SummaryWindowTooSmallError) return "the model's input window is too small for a summary";
  if (error instanceof CancelledError) return 'the model request was cancelled';
  if (error instanceof Error && error.message.trim().length > 0) {
    return `the model request failed (${shortenEnd(oneLine(error.message), MAX_QUOTED_ERROR_CHARS)})`;
  }
  return 'the model request failed';
}

/** "60 s", "5 min", "250 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
