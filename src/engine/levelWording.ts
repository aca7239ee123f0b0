/**
 * How a level is put into words. A level message always names both ends of what happened, so that
 * "CRITICAL" next to "63%" never reads as a contradiction: "reached 87% (CRITICAL), compressed to 63% (ORANGE)".
 */
import type { Level } from './levels';

/** Where the context stands: the share of the budget in use and the level it falls in. */
export interface LevelPoint {
  readonly usage: number;
  readonly level: Level;
}

/**
 * "87% (CRITICAL)". The percentage is rounded down, so that a figure never reads as past a threshold
 * its level has not reached (84.9% is RED, and shows as 84%, not 85%).
 */
export function levelFigure(point: LevelPoint): string {
  return `${Math.floor(point.usage * 100)}% (${point.level})`;
}

/**
 * Before and after ctx acted on the context: "reached 87% (CRITICAL), compressed to 63% (ORANGE)", or
 * "at 42% (YELLOW)" when nothing was taken out.
 */
export function levelChange(before: LevelPoint, after: LevelPoint): string {
  if (after.usage < before.usage) return `reached ${levelFigure(before)}, compressed to ${levelFigure(after)}`;
  return `at ${levelFigure(after)}`;
}

/**
 * The earlier lines (design §4.1) within what a request sends, named apart: ", 12% of it earlier lines, word for word",
 * or nothing under 1%.
 */
export function earlierLinesNote(earlier: { readonly usage: number }): string {
  const percent = Math.floor(earlier.usage * 100);
  return percent >= 1 ? `, ${percent}% of it earlier lines, word for word` : '';
}

/** An explicit compression's effect: "from 80% (RED) to 52% (ORANGE)". */
export function levelShift(before: LevelPoint, after: LevelPoint): string {
  return `from ${levelFigure(before)} to ${levelFigure(after)}`;
}
