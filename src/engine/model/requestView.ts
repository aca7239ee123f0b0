/** What the next request sends, measured: the shape every part reads (the renderer that builds it is `session/requestRenderer`). */
import type { ContextSection } from './contextSection';
import { levelFor, type Level, type LevelThresholds } from '../levels';
import type { Measurement } from '../tokens/counter';
import type { Message } from '../types';

/** What is sent to the model for the next request, measured. */
export interface RequestView {
  readonly messages: readonly Message[];
  readonly measured: Measurement;
  /** Tokens of the context message (ledger, checkpoints, what the drift check put back). */
  readonly contextTokens: number;
  /** True when what must never be summarized does not fit its budget. */
  readonly ledgerOverflow: boolean;
  /** The context message's sections, in order: what each part of it is (empty without a context message). */
  readonly sections: readonly ContextSection[];
  /** Tokens the earlier lines take (0 when none are shown). */
  readonly earlierTokens: number;
}

/**
 * The level a view stands at: its share of the budget. A protected part over its share is said to the user
 * but is no level of its own: a fresh session would carry the same part, and the rest of the context still
 * fits while the whole does.
 */
export function levelOfView(view: RequestView, budget: number, thresholds: LevelThresholds): Level {
  return levelFor(view.measured.total / budget, thresholds);
}
