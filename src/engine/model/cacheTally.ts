/**
 * What a session's requests meet in a provider's prompt cache, added up: the requests of the conversation (each one's
 * reuse of the one before, see `promptCache/sentPrefix.ts`) and the summary requests its checkpoints made. Kept in the
 * session's state, so the status report and the dashboard show it across reloads; priced in `promptCache/cachePricing.ts`.
 */

import { isAmount } from './stateNumbers';

/** One request as the prompt cache meets it. */
export interface RequestReuse {
  /** Tokens of the request. */
  readonly sentTokens: number;
  /** Tokens of its leading messages that the previous request sent the same: what a prompt cache reads. */
  readonly reusedTokens: number;
  /**
   * Tokens of the previous request that this one no longer starts with: what a rewrite of something already sent
   * (a rebase) cost the cache. 0 while requests only grow.
   */
  readonly invalidatedTokens: number;
}

export interface CacheTally {
  /** Requests of the conversation sent to the model. */
  readonly requests: number;
  readonly sentTokens: number;
  /** Tokens read from the prompt cache: each request's prefix that the one before sent the same. */
  readonly reusedTokens: number;
  /** Requests that did not start with the whole of the one before (a rebase: something already sent was rewritten). */
  readonly rebases: number;
  /** Tokens those rebases made the cache read anew. */
  readonly invalidatedTokens: number;
  /** Summary requests the checkpoints sent a model (or, with no model, would have sent). */
  readonly summaryRequests: number;
  readonly summaryInputTokens: number;
  /**
   * Tokens of those summary requests that the conversation's last request sent the same: a summary asked as the
   * conversation's next request reads it from the cache. Absent from a tally kept before it was counted (read as 0).
   */
  readonly summaryReusedTokens?: number;
}

export const EMPTY_CACHE_TALLY: CacheTally = {
  requests: 0,
  sentTokens: 0,
  reusedTokens: 0,
  rebases: 0,
  invalidatedTokens: 0,
  summaryRequests: 0,
  summaryInputTokens: 0,
  summaryReusedTokens: 0,
};

/** The tally with one more request of the conversation. */
export function withRequest(tally: CacheTally, reuse: RequestReuse): CacheTally {
  return {
    ...tally,
    requests: tally.requests + 1,
    sentTokens: tally.sentTokens + reuse.sentTokens,
    reusedTokens: tally.reusedTokens + reuse.reusedTokens,
    rebases: tally.rebases + (reuse.invalidatedTokens > 0 ? 1 : 0),
    invalidatedTokens: tally.invalidatedTokens + reuse.invalidatedTokens,
  };
}

/** The tally with one more summary request of `inputTokens`, `reusedTokens` of them read from the cache. */
export function withSummaryRequest(tally: CacheTally, inputTokens: number, reusedTokens = 0): CacheTally {
  return {
    ...tally,
    summaryRequests: tally.summaryRequests + 1,
    summaryInputTokens: tally.summaryInputTokens + inputTokens,
    summaryReusedTokens: (tally.summaryReusedTokens ?? 0) + Math.min(reusedTokens, inputTokens),
  };
}

/** Share of the tokens sent that the prompt cache read, weighted by each request's size (0 before any request). */
export function reuseShare(tally: CacheTally): number {
  return tally.sentTokens > 0 ? tally.reusedTokens / tally.sentTokens : 0;
}

/** True for a tally read back from storage: every figure a finite count, none negative. */
export function isCacheTally(v: unknown): v is CacheTally {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (Object.keys(EMPTY_CACHE_TALLY) as (keyof CacheTally)[]).every(
    (k) => isAmount(r[k]) || (k === 'summaryReusedTokens' && r[k] === undefined),
  );
}
