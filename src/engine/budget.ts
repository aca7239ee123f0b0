/**
 * The token budget: what the model can take as input, less a reserve for its answer.
 */

/** Room kept for the model's answer unless a setting says otherwise. */
export const DEFAULT_ANSWER_RESERVE_TOKENS = 4096;

/**
 * The most a budget is unless a setting says otherwise, however large the window.
 * @default 200000 — models answer worse long before a 1M-token window is full, every request costs
 * what it sends, and a checkpoint at 75% of a million tokens would come late and summarize a great
 * deal at once; below this size the window itself is the limit.
 */
export const DEFAULT_BUDGET_CEILING_TOKENS = 200_000;

/** A budget never drops below this, so a tiny or misreported window still leaves room to work. */
export const MIN_BUDGET_TOKENS = 1024;

export interface BudgetInputs {
  /** The model's maximum input tokens (e.g. `LanguageModelChat.maxInputTokens`). */
  readonly maxInputTokens: number;
  /** @default DEFAULT_ANSWER_RESERVE_TOKENS */
  readonly answerReserveTokens?: number;
  /** When above 0, replaces the model's figure. */
  readonly maxInputTokensOverride?: number;
  /** When above 0, the budget is at most this. @default no ceiling */
  readonly ceilingTokens?: number;
}

/** Budget = maximum input tokens (or the override) − answer reserve, at most the ceiling. */
export function budgetFor(inputs: BudgetInputs): number {
  const window = inputs.maxInputTokensOverride && inputs.maxInputTokensOverride > 0 ? inputs.maxInputTokensOverride : inputs.maxInputTokens;
  const reserve = Math.max(0, inputs.answerReserveTokens ?? DEFAULT_ANSWER_RESERVE_TOKENS);
  // A reserve larger than half the window would leave nothing for the conversation: cap it.
  const effectiveReserve = Math.min(reserve, Math.floor(window / 2));
  const budget = Math.floor(window - effectiveReserve);
  const ceiling = inputs.ceilingTokens && inputs.ceilingTokens > 0 ? inputs.ceilingTokens : Number.POSITIVE_INFINITY;
  return Math.max(MIN_BUDGET_TOKENS, Math.min(budget, ceiling));
}

/**
 * The dynamic budget of the checkpoint design (design §4.1): what is left for the conversation
 * once the system prompt and the checkpoints have taken their share.
 */
export function availableBudget(budget: number, systemTokens: number, checkpointTokens: number): number {
  return Math.max(0, budget - systemTokens - checkpointTokens);
}

/**
 * The answer reserve beside a budget: the configured reserve, capped as `budgetFor` caps it (a
 * reserve never takes more than half the window, so never more than the budget).
 */
export function answerReserveBeside(budget: number, configuredReserve: number): number {
  return Math.max(0, Math.min(configuredReserve, budget));
}

/** Usage share of a budget, 0 for an empty budget. */
export function usageOf(tokens: number, budget: number): number {
  return budget > 0 ? tokens / budget : 0;
}
