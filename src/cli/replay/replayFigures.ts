/** What a replay measured: the figures the command line prints and the benchmarks compare. */
import type { TranscriptFormat } from '../import/importTypes';
import type { Level } from '../../engine/host/settings';
import type { CacheTally, RequestReuse } from '../../engine/host/session';

export interface ReplayFigures {
  readonly format: TranscriptFormat;
  /** Messages fed to the session, in order. */
  readonly messages: number;
  readonly toolCalls: number;
  /** All model-visible content of the messages as they arrived, with framing: what no compression would send. */
  readonly inputTokens: number;
  /** The model's maximum input tokens the replay was given. */
  readonly maxInputTokens: number;
  /** The most the budget could be, however large the window; 0 when nothing capped it. */
  readonly ceilingTokens: number;
  /** What `prepare` was given: the maximum input tokens less the answer reserve, at most the ceiling. */
  readonly budget: number;
  /** The largest context any request would have sent. */
  readonly peakTokens: number;
  /** The context of the last request. */
  readonly finalTokens: number;
  readonly finalUsage: number;
  readonly finalLevel: Level;
  /** Tool results written to files (tier 1). */
  readonly offloaded: number;
  /** Write/edit inputs replaced by a reference to the file (tier 2). */
  readonly truncated: number;
  /** Tool calls and results dropped by the watermark. */
  readonly watermarked: number;
  /** Checkpoints standing in the final context (tier 3). */
  readonly checkpoints: number;
  /** Checkpoints made over the replay (tier 3), aging aside. */
  readonly checkpointsMade: number;
  /** Snapshots taken (before each checkpoint, at high usage, and at CRITICAL). */
  readonly snapshots: number;
  /**
   * What the requests sent for each answer met in a provider's prompt cache, with the summary requests a model
   * would have been sent for the checkpoints (the replay itself uses none).
   */
  readonly promptCache: CacheTally;
  /** Each request sent for an answer, in order, as the prompt cache met it. */
  readonly requests: readonly SentRequestFigures[];
  /** Wall time of the replay itself (adding and preparing), in milliseconds. */
  readonly ms: number;
}

/** One request as the prompt cache met it: its tokens, what it reused of the one before, and its input priced with a cache. */
export interface SentRequestFigures extends RequestReuse {
  /** In units of the base input price (a cache read at 0.1, a write at 1.25). */
  readonly pricedInput: number;
}

/** How far a replay has got, after each message. */
export interface ReplayProgress {
  readonly done: number;
  readonly total: number;
  readonly tokens: number;
  readonly level: Level;
}
