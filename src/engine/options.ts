/** Everything the engine can be told, as one plain object; the host reads settings and fills it in. */
import { DEFAULT_THRESHOLDS, type LevelThresholds } from './levels';

/**
 * When Tier 3 runs: at the RED level, or at 80% of the available budget, the budget
 * less what the ledger and the checkpoints take (design §4.1).
 */
export type CheckpointTrigger = 'red' | 'available';

export interface EngineOptions {
  readonly thresholds: LevelThresholds;
  /** Tool results above this many tokens are offloaded. @default 15000 */
  readonly offloadThresholdTokens: number;
  /** Tool results above this share of the budget are offloaded too, when that is fewer tokens. @default 0.05 */
  readonly offloadBudgetShare: number;
  /** The most recent messages are never truncated or summarized (design §4.1). @default 3 */
  readonly recentMessagesKept: number;
  /** At least this many tokens of the latest messages are kept intact (design §4.1). @default 2048 */
  readonly recentTokensKept: number;
  /** Usage share above which tier 2 truncates inputs already on disk. @default 0.5 */
  readonly truncateInputsAt: number;
  /** Tool names whose call marks a checkpoint for the watermark. @default ['ctx_checkpoint'] */
  readonly checkpointTools: readonly string[];
  /** @default 'red' */
  readonly checkpointTrigger: CheckpointTrigger;
  /** Share of the available budget that triggers Tier 3 when the trigger is 'available' (design §4.1). @default 0.8 */
  readonly availableTriggerShare: number;
  /**
   * Usage share a checkpoint brings the context down to, so that it does not fire again at once: the lower, the
   * longer the requests after it grow by appending alone (a prompt-cache read) before the next rewrite. @default 0.3
   */
  readonly targetUsageAfterCheckpoint: number;
  /** Summary target of a new checkpoint; older ones age to 1/2, 1/4 and 1/8 of it. @default 1200 */
  readonly checkpointTokens: number;
  /** Share of the budget the ledger may take before its tool record is shortened. @default 0.25 */
  readonly ledgerShare: number;
  /**
   * Share of the budget the ledger's tool record (files, commands, searches, errors, offloaded results) may take
   * within the ledger's; the least important and oldest lines beyond it are left to `ctx_recover`.
   * @default 0.02 (see {@link DEFAULT_TOOL_RECORD_SHARE})
   */
  readonly toolRecordShare: number;
  /** Usage share at which old tool results are compressed in place (design §3.5). @default 0.8 */
  readonly compressResultsAt: number;
  /** Only results above this many tokens are compressed in place (design §3.5). @default 5000 */
  readonly compressResultsMinTokens: number;
  /** Share of its size a compressed result keeps (design §3.5). @default 0.1 */
  readonly compressResultsShare: number;
  /** Usage share at which a snapshot is taken automatically, once per rise (design §7). @default 0.8 */
  readonly autoSnapshotAt: number;
  /** How long a model summary may take before the deterministic one is used. @default 60000 */
  readonly summaryTimeoutMs: number;
}

/** The shares of the budget the ledger and its tool record may take. */
export type LedgerShares = Pick<EngineOptions, 'ledgerShare' | 'toolRecordShare'>;

/** An old result above this share of the budget is compressed in place at high usage, even below the configured minimum. */
export const COMPRESS_RESULTS_MAX_BUDGET_SHARE = 0.1;
/** A new checkpoint takes at most this share of the budget, even when the configured size is larger. */
export const CHECKPOINT_MAX_BUDGET_SHARE = 0.1;

/**
 * The options as they apply to a budget. The configured sizes suit large windows; in a small one
 * a 15,000-token result or a 1,200-token checkpoint would be a large share of everything there is,
 * so each is capped at a share of the budget. The offload threshold's share is a price too (see
 * `DEFAULT_OFFLOAD_BUDGET_SHARE`): below a 300,000-token budget it, not the 15,000 tokens, decides.
 * A budget of 0 (not known yet) leaves them as configured.
 */
export function optionsForBudget(o: EngineOptions, budget: number): EngineOptions {
  if (!(budget > 0)) return o;
  return {
    ...o,
    offloadThresholdTokens: Math.min(o.offloadThresholdTokens, Math.floor(budget * o.offloadBudgetShare)),
    compressResultsMinTokens: Math.min(o.compressResultsMinTokens, Math.floor(budget * COMPRESS_RESULTS_MAX_BUDGET_SHARE)),
    checkpointTokens: Math.min(o.checkpointTokens, Math.floor(budget * CHECKPOINT_MAX_BUDGET_SHARE)),
  };
}

/** Tool results above this many tokens are offloaded to a file (design §3.1). */
export const DEFAULT_OFFLOAD_THRESHOLD_TOKENS = 15_000;

/**
 * Once sent, a tool result is read again by every request until the next checkpoint; written to a file as a
 * preview on arrival it is cheaper at each of them, and the window fills slower, so checkpoints come later.
 * Replayed over the corpus (priced at a 60,000-token window, facts at half of each session's input), a twentieth of
 * the budget kept the most facts and cost less than a quarter or a tenth; a fortieth cost less but kept fewer.
 */
export const DEFAULT_OFFLOAD_BUDGET_SHARE = 0.05;

/**
 * The tool record is sent with every request of a stretch, and few of its lines carry what the work came to: in the
 * final contexts of the tuning splits, its commands, files and offloaded results held 6 facts in 100,000 tokens that
 * nothing else held, the earlier lines 110. 3% of the budget, with the earlier lines' room at 22% instead of 20%, kept
 * as many facts on every split as the record uncapped and priced the prompt cache's input 4% lower (set3 5% lower);
 * 4% and 6% cost more, and 3% with the earlier lines at 25% cost more and kept one fact fewer on set2. With the
 * earlier lines at 30%, 2% kept as many facts on set3 at half the input and two more at a quarter than 3%, at 1% less
 * priced input; 1% and 4% kept fewer.
 */
export const DEFAULT_TOOL_RECORD_SHARE = 0.02;

/** A new checkpoint's summary target (design §4.4). */
export const DEFAULT_CHECKPOINT_TOKENS = 1200;

/** The name of ctx's own checkpoint tool (design §3.4). */
export const CHECKPOINT_TOOL = 'ctx_checkpoint';

export const DEFAULT_OPTIONS: EngineOptions = {
  thresholds: DEFAULT_THRESHOLDS,
  offloadThresholdTokens: DEFAULT_OFFLOAD_THRESHOLD_TOKENS,
  offloadBudgetShare: DEFAULT_OFFLOAD_BUDGET_SHARE,
  recentMessagesKept: 3,
  recentTokensKept: 2048,
  truncateInputsAt: 0.5,
  checkpointTools: [CHECKPOINT_TOOL],
  checkpointTrigger: 'red',
  availableTriggerShare: 0.8,
  targetUsageAfterCheckpoint: 0.3,
  checkpointTokens: DEFAULT_CHECKPOINT_TOKENS,
  ledgerShare: 0.25,
  toolRecordShare: DEFAULT_TOOL_RECORD_SHARE,
  compressResultsAt: 0.8,
  compressResultsMinTokens: 5000,
  compressResultsShare: 0.1,
  autoSnapshotAt: 0.8,
  summaryTimeoutMs: 60_000,
};
