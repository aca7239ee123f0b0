/**
 * Context levels: how full the window is, and what the engine does about it. The thresholds
 * come from the design (§2): compression starts well before the
 * window is full so that there is always room to summarize.
 */

export type Level = 'GREEN' | 'YELLOW' | 'ORANGE' | 'RED' | 'CRITICAL';

export const LEVELS: readonly Level[] = ['GREEN', 'YELLOW', 'ORANGE', 'RED', 'CRITICAL'];

/** Share of the budget (0..1) at which each level starts. GREEN starts at 0. */
export interface LevelThresholds {
  /** @default 0.25 */
  readonly yellowAt: number;
  /** @default 0.50 */
  readonly orangeAt: number;
  /** @default 0.75 */
  readonly redAt: number;
  /** @default 0.85 */
  readonly criticalAt: number;
}

/** Below a quarter of the window nothing needs watching. */
export const YELLOW_AT = 0.25;
/** From half the window, tool inputs already on disk are worth truncating (tiers 1 and 2). */
export const ORANGE_AT = 0.5;
/** From three quarters, history is summarized into checkpoints (tier 3). */
export const RED_AT = 0.75;
/** From 85% there is barely room left to summarize: checkpoint and offer a fresh session. */
export const CRITICAL_AT = 0.85;

export const DEFAULT_THRESHOLDS: LevelThresholds = {
  yellowAt: YELLOW_AT,
  orangeAt: ORANGE_AT,
  redAt: RED_AT,
  criticalAt: CRITICAL_AT,
};

/** What each level asks for, in the words of the status report. */
export const LEVEL_ACTIONS: Readonly<Record<Level, string>> = {
  GREEN: 'Continue normally.',
  YELLOW: 'Monitor; prepare compression.',
  ORANGE: 'Apply tier 1 (offload) and tier 2 (truncate inputs already on disk).',
  RED: 'Apply tier 3: summarize older history into a checkpoint.',
  CRITICAL: 'Checkpoint now and continue in a fresh session from it.',
};

/** The level for a usage share. Boundaries belong to the higher level (25% is YELLOW). */
export function levelFor(usage: number, thresholds: LevelThresholds = DEFAULT_THRESHOLDS): Level {
  if (usage >= thresholds.criticalAt) return 'CRITICAL';
  if (usage >= thresholds.redAt) return 'RED';
  if (usage >= thresholds.orangeAt) return 'ORANGE';
  if (usage >= thresholds.yellowAt) return 'YELLOW';
  return 'GREEN';
}

/** Thresholds must rise strictly; settings that do not are replaced by the defaults, with the reason. */
export function validateThresholds(t: LevelThresholds): { thresholds: LevelThresholds; problem?: string } {
  const values = [t.yellowAt, t.orangeAt, t.redAt, t.criticalAt];
  const finite = values.every((v) => Number.isFinite(v) && v > 0 && v <= 1);
  const rising = values.every((v, i) => i === 0 || v > values[i - 1]);
  if (finite && rising) return { thresholds: t };
  return {
    thresholds: DEFAULT_THRESHOLDS,
    problem: `Level thresholds must rise between 0 and 1 (got ${values.join(', ')}); using the defaults 0.25, 0.5, 0.75, 0.85.`,
  };
}
