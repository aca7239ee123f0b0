/**
 * What one recall check found, as counts stored with the checkpoint it checked, and the confidence
 * they give that what the span established is still within the model's reach.
 */
import { isRecord } from '../schema';

/** The figures of one recall check. */
export interface RecallFigures {
  /** Facts extracted from the span. */
  readonly extracted: number;
  /** Verbatim in the new context (ledger, checkpoints, live messages). */
  readonly kept: number;
  /** Not in the context, but among the top results of a search of the archive. */
  readonly found: number;
  /** Neither, and put back: into the checkpoint's summary or the ledger's facts. */
  readonly putBack: number;
  /** Neither kept, found nor put back. */
  readonly lost: number;
}

/** The figures of a check that found nothing to check. */
export const NO_RECALL_FIGURES: RecallFigures = { extracted: 0, kept: 0, found: 0, putBack: 0, lost: 0 };

/**
 * How much a fact only found by search counts, against one in the context.
 * @default 0.75 — it is one `ctx_recover` call away, but the model has to think of making it.
 */
export const FOUND_WEIGHT = 0.75;

/** The confidence, 0 to 1, that the span's facts are within reach: kept and put back count fully, found by search partly. 1 with no facts. */
export function recallConfidence(figures: RecallFigures): number {
  if (figures.extracted <= 0) return 1;
  const reached = figures.kept + figures.putBack + FOUND_WEIGHT * figures.found;
  return Math.min(1, Math.max(0, reached / figures.extracted));
}

/** The figures of several checks added up (all checkpoints of a session, say). */
export function sumRecallFigures(all: readonly RecallFigures[]): RecallFigures {
  return all.reduce(
    (sum, f) => ({
      extracted: sum.extracted + f.extracted,
      kept: sum.kept + f.kept,
      found: sum.found + f.found,
      putBack: sum.putBack + f.putBack,
      lost: sum.lost + f.lost,
    }),
    NO_RECALL_FIGURES,
  );
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** True when `v` is well-formed recall figures (read back from storage). */
export function isRecallFigures(v: unknown): v is RecallFigures {
  return isRecord(v) && isCount(v.extracted) && isCount(v.kept) && isCount(v.found) && isCount(v.putBack) && isCount(v.lost);
}
