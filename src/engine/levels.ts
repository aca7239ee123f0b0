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

/** What each level means for the user, in the words of the status report: what ctx does, and what is theirs to do. */
export const LEVEL_ACTIONS: Readonly<Record<Level, string>> = {
  GREEN: 'Nothing to do: continue normally.',
  YELLOW: 'Nothing to do: ctx offloads large tool results as they arrive.',
  ORANGE: 'Nothing to do: ctx prepares the next checkpoint in the background and drops copies of files already on disk.',
  RED: 'Nothing to do: ctx summarizes older history into a checkpoint before the next request. `/compress` does it now.',
  CRITICAL: 'Start a fresh session from the checkpoint (`/fresh`): the context is nearly full even after compressing.',
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
