/** Everything the engine can be told, as one plain object; the host reads settings and fills it in. */
import { DEFAULT_THRESHOLDS, type LevelThresholds } from './levels';
import { DEFAULT_OFFLOAD_THRESHOLD_TOKENS } from './tiers/offload';

export interface EngineOptions {
  readonly thresholds: LevelThresholds;
  /** Tool results above this many tokens are offloaded. @default 15000 */
  readonly offloadThresholdTokens: number;
  /** The most recent messages are never truncated or compressed. @default 3 */
  readonly recentMessagesKept: number;
  /** Usage share above which tier 2 truncates inputs already on disk. @default 0.5 */
  readonly truncateInputsAt: number;
  /** Tool names whose call marks a checkpoint for the watermark. @default ['ctx_checkpoint'] */
  readonly checkpointTools: readonly string[];
}

/** The name of ctx's own checkpoint tool (seed 001's `compress_to_checkpoint`). */
export const CHECKPOINT_TOOL = 'ctx_checkpoint';

export const DEFAULT_OPTIONS: EngineOptions = {
  thresholds: DEFAULT_THRESHOLDS,
  offloadThresholdTokens: DEFAULT_OFFLOAD_THRESHOLD_TOKENS,
  recentMessagesKept: 3,
  truncateInputsAt: 0.5,
  checkpointTools: [CHECKPOINT_TOOL],
};
