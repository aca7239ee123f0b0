/**
 * The input window a ctx model reports to its callers. Callers size their prompts to it and run
 * their own compaction (trimming or summarizing old turns) when they think they exceed it; ctx
 * keeps what it actually sends inside the wrapped model's real window either way.
 *
 * - `model`: the wrapped model's window. Callers count their messages through ctx, which counts
 *   large tool results as the previews it sends, so their compaction runs much later than it
 *   would, and stays as a safety net for what ctx cannot shrink.
 * - `extended`: a larger window, so that callers practically never compact and every old turn
 *   reaches ctx, which keeps the ledger and the archive of all of them.
 */

/** How many times the wrapped window `extended` reports. */
export const EXTENDED_WINDOW_FACTOR = 8;

export type ReportedWindowSetting = 'model' | 'extended';

export function reportedInputTokens(wrappedInputTokens: number, setting: ReportedWindowSetting): number {
  return setting === 'extended' ? wrappedInputTokens * EXTENDED_WINDOW_FACTOR : wrappedInputTokens;
}
