/**
 * The input window a ctx model reports to its callers. Callers size their prompts to it and run
 * their own compaction (summarizing old turns into a summary of their own) when they count more than
 * it; ctx keeps what it actually sends inside the wrapped model's real window either way.
 *
 * - `extended` (the default): eight times the wrapped window, so that callers practically never
 *   compact and leave the compressing to ctx, which keeps every turn in its archive, ledger and
 *   checkpoints. A caller's own compaction replaces its history with its summary, and each is a
 *   full-window request: Copilot's agent, counting the history it holds, compacts about every two
 *   rounds with the real window and about once in 32 rounds with this one (BENCHMARKS.md). What a
 *   caller may then send, more than the real window, still fits it: tier 1 and the attached-context
 *   step take results and attachments, the fit step takes the largest live blocks of a request over
 *   the budget (`tiers/offloadToFit.ts`), and a request sent as it came is cut to fit (`fitAsSent.ts`).
 * - `model`: the wrapped model's window. Callers count their messages through ctx, which counts
 *   large tool results as the previews it sends, so their compaction runs later than it would
 *   without ctx, and stays as a safety net.
 */

/** How many times the wrapped window `extended` reports. */
export const EXTENDED_WINDOW_FACTOR = 8;

export type ReportedWindowSetting = 'model' | 'extended';

/** What ctx's models report unless the setting says otherwise: callers leave the compressing to ctx. */
export const DEFAULT_REPORTED_WINDOW: ReportedWindowSetting = 'extended';

export function reportedInputTokens(wrappedInputTokens: number, setting: ReportedWindowSetting): number {
  return setting === 'extended' ? wrappedInputTokens * EXTENDED_WINDOW_FACTOR : wrappedInputTokens;
}

/** The setting as read from a user's configuration: anything but a known value is the default. */
export function reportedWindowSetting(value: unknown): ReportedWindowSetting {
  return value === 'model' || value === 'extended' ? value : DEFAULT_REPORTED_WINDOW;
}
