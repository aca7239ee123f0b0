/** What a request is sent and how full the window is, as the hosts and the turn read it (built by `session/preparedContext`). */
import type { CompressionEvent } from './compressionEvent';
import type { Level } from '../levels';
import type { Message } from '../types';

/** Why the user is offered a fresh session. */
export interface CriticalOffer {
  readonly reason: string;
  readonly snapshot?: string;
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
  readonly before: { readonly tokens: number; readonly usage: number; readonly level: Level };
  /** Set when the context went CRITICAL: the user should be offered a fresh session. */
  readonly critical?: CriticalOffer;
}
