/** What a request is sent and how full the window is, as the hosts and the turn read it (built by `session/preparedContext`). */
import type { CompressionEvent } from './compressionEvent';
import type { Level } from '../levels';
import type { Message } from '../types';

/** Why the user is offered a fresh session. */
export interface CriticalOffer {
  readonly reason: string;
  readonly snapshot?: string;
}

/** Where the context stands: tokens, their share of the budget and the level it falls in. */
export interface ContextFigures {
  readonly tokens: number;
  readonly usage: number;
  readonly level: Level;
}

/**
 * What the next request sends before the steps and after them: the figures a compression is told by, like with like,
 * with the earlier lines it holds after them named apart (design §4.1: chosen at the rebase and sent unchanged until
 * the next one).
 */
export interface NeededFigures {
  readonly before: ContextFigures;
  readonly after: ContextFigures;
  /** The earlier lines within `after`: tokens and share of the budget (0 when none). */
  readonly earlier: { readonly tokens: number; readonly usage: number };
}

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
  readonly before: ContextFigures;
  /** Before and after without the earlier lines: what compressions are told by. */
  readonly needed: NeededFigures;
  /** Set when the context went CRITICAL: the user should be offered a fresh session. */
  readonly critical?: CriticalOffer;
}
