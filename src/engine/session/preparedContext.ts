/** What a request is sent, and how full the window is: a preparation's views as the host sees them. */
import { usageOf } from '../budget';
import type { CompressionEvent } from '../compressionEvent';
import type { Level, LevelThresholds } from '../levels';
import type { Message } from '../types';
import type { CriticalOffer, Preparation } from './requestPreparation';
import { levelOfView, type RequestView } from './requestView';

/** What the model is sent, and how full the window is. */
export interface PreparedContext {
  readonly messages: readonly Message[];
  readonly tokens: number;
  readonly budget: number;
  readonly usage: number;
  readonly level: Level;
  /** True while the tokenizer is not built and the figures are estimates. */
  readonly estimated: boolean;
  /** What the tiers did during this call. */
  readonly events: readonly CompressionEvent[];
  /** Tokens of ctx's context message (ledger, checkpoints), included in `tokens`. */
  readonly contextTokens: number;
  readonly checkpoints: number;
  /** Where the context stood before the tiers acted in this call (its highest point). */
  readonly before: { readonly tokens: number; readonly usage: number; readonly level: Level };
  /** Set when the context went CRITICAL: the user should be offered a fresh session. */
  readonly critical?: CriticalOffer;
}

/** The prepared context of a preparation's views at a budget. */
export function preparedContext(
  p: Pick<Preparation, 'view' | 'before' | 'events' | 'critical'>,
  budget: number,
  thresholds: LevelThresholds,
  checkpoints: number,
): PreparedContext {
  const figures = (view: RequestView) => ({
    tokens: view.measured.total,
    usage: usageOf(view.measured.total, budget),
    level: levelOfView(view, budget, thresholds),
  });
  return {
    messages: p.view.messages,
    ...figures(p.view),
    budget,
    estimated: p.view.measured.estimated,
    events: p.events,
    contextTokens: p.view.contextTokens,
    checkpoints,
    before: figures(p.before),
    ...(p.critical ? { critical: p.critical } : {}),
  };
}
