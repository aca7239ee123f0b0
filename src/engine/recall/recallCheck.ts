/**
 * The recall check: after a span is summarized, is each of its facts still within the model's
 * reach? Kept when the new context holds it verbatim, found when a search of the archive returns
 * it among the first results, missing otherwise. It reads any summary text, a model's as well as
 * the deterministic one, so a summary that drops a fact is caught whoever wrote it.
 */
import { CancelledError, NEVER_CANCELLED, type Cancellation } from '../cancellation';
import type { Fact } from '../model/fact';
import { holdsKey, matchForm } from '../facts/factKey';
import type { RecallFigures } from '../model/recallFigures';

/** What became of one fact. */
export type RecallStatus = 'kept' | 'found' | 'missing';

/** A fact and what became of it. */
export interface FactRecall {
  readonly fact: Fact;
  readonly status: RecallStatus;
}

/**
 * ctx's recovery search over the archive, as the check uses it: the texts of the best `top` hits
 * for `query`, best first. A hit's text should be what the hit leads to (the message or the
 * stretch of an offloaded file), or at least its excerpt.
 */
export type RecallSearch = (query: string, top: number) => Promise<readonly { readonly text: string }[]>;

/** How many search results count as "one search away". @default 3 */
export const SEARCH_TOP = 3;

/** What the recall check looks at. */
export interface RecallCheckInput {
  readonly facts: readonly Fact[];
  /**
   * The text of the new context as the model will see it: the ledger, the checkpoints (the new
   * summary among them) and the live messages.
   */
  readonly contextText: string;
  /** Without it, every fact not in the context is missing. */
  readonly search?: RecallSearch;
  /** @default 3 */
  readonly searchTop?: number;
  readonly cancellation?: Cancellation;
}

/** What the recall check found. */
export interface RecallCheck {
  /** Every fact with its status, in the order given. */
  readonly results: readonly FactRecall[];
  /** The missing facts, in the order given: the ones to put back. */
  readonly missing: readonly Fact[];
  /** The figures before anything is put back (`putBack` 0, every missing fact lost). */
  readonly figures: RecallFigures;
}

/**
 * Checks each fact: in the context (one pass over it, then a substring test per fact), else by a
 * search for its key. A search that fails counts as not found; the check itself never fails for
 * it. Rejects with `CancelledError` when cancelled.
 */
export async function checkRecall(input: RecallCheckInput): Promise<RecallCheck> {
  const cancellation = input.cancellation ?? NEVER_CANCELLED;
  const context = matchForm(input.contextText);
  const top = input.searchTop ?? SEARCH_TOP;
  const results: FactRecall[] = [];
  for (const fact of input.facts) {
    if (cancellation.isCancellationRequested) throw new CancelledError('The recall check');
    if (holdsKey(context, fact.key)) results.push({ fact, status: 'kept' });
    else results.push({ fact, status: (await foundBySearch(fact, input.search, top)) ? 'found' : 'missing' });
  }
  const count = (status: RecallStatus) => results.filter((r) => r.status === status).length;
  const missing = results.filter((r) => r.status === 'missing').map((r) => r.fact);
  return {
    results,
    missing,
    figures: { extracted: results.length, kept: count('kept'), found: count('found'), putBack: 0, lost: missing.length },
  };
}

async function foundBySearch(fact: Fact, search: RecallSearch | undefined, top: number): Promise<boolean> {
  if (search === undefined) return false;
  try {
    const hits = await search(fact.key, top);
    return hits.slice(0, top).some((hit) => holdsKey(matchForm(hit.text), fact.key));
  } catch {
    return false;
  }
}

/** The figures once `putBack` of the missing facts were put back. */
export function withPutBack(figures: RecallFigures, putBack: number): RecallFigures {
  const n = Math.max(0, Math.min(putBack, figures.lost + figures.putBack));
  return { ...figures, putBack: n, lost: figures.lost + figures.putBack - n };
}
