/** The context status: usage, level, what the tiers did, and what to do next. */
import { usageOf } from '../budget';
import type { Peak } from './answerActivity';
import type { CompressionRecord } from './lastCompression';
import type { CompressionEvent } from '../model/compressionEvent';
import { LEVEL_ACTIONS, levelFor, type Level, type LevelThresholds } from '../levels';
import { AGE_LABELS } from '../checkpoints/aging';
import type { Reliability } from './reliability';
import type { SessionState } from '../model/sessionState';
import { sumRecallFigures, type RecallFigures } from '../model/recallFigures';
import type { CacheTally } from '../model/cacheTally';

/** A checkpoint as the report lists it. */
export interface CheckpointLine {
  readonly range: string;
  readonly age: string;
  readonly tokens: number;
  readonly originalTokens: number;
  readonly summarizedBy: string;
  /** What the recall check found after its summary was written. */
  readonly recall?: RecallFigures;
}

export interface ContextStatus {
  readonly at: number;
  readonly sessionId: string;
  readonly title: string;
  readonly tokens: number;
  readonly budget: number;
  readonly usage: number;
  readonly level: Level;
  readonly estimated: boolean;
  readonly messages: number;
  readonly archived: number;
  readonly offloads: { readonly count: number; readonly savedTokens: number };
  readonly truncations: { readonly count: number; readonly savedTokens: number };
  readonly watermarkDrops: { readonly count: number; readonly savedTokens: number };
  readonly history: readonly CompressionEvent[];
  readonly recommendation: string;
  readonly warnings: readonly string[];
  /** Checkpoints made so far (Tier 3 runs; aging is not counted). */
  readonly checkpointsMade: number;
  readonly checkpoints: readonly CheckpointLine[];
  readonly goals: number;
  readonly decisions: number;
  readonly driftDetections: number;
  /** The recall checks of the checkpoints in the context, added up; absent before any ran. */
  readonly recall?: RecallFigures;
  readonly reliability?: Reliability;
  readonly snapshots?: number;
  /** The background checkpoint's state. */
  readonly backgroundCheckpoint?: string;
  /** The highest point the context reached in the last answer, and where ctx brought it down to. */
  readonly lastAnswerPeak?: Peak;
  readonly lastCompression?: CompressionRecord;
  /** Tokens of the earlier lines within `tokens` (chosen at the last compression); absent when none. */
  readonly earlierTokens?: number;
  /** What is off because the workspace is not trusted (empty or absent when it is). */
  readonly restrictedMode?: readonly string[];
  /** What the session's requests met in a provider's prompt cache; absent before the first request. */
  readonly promptCache?: CacheTally;
}

export interface StatusInputs {
  readonly state: SessionState;
  readonly tokens: number;
  readonly budget: number;
  readonly estimated: boolean;
  readonly thresholds: LevelThresholds;
  readonly warnings: readonly string[];
  readonly now: number;
  readonly reliability?: Reliability;
  readonly snapshots?: number;
  readonly backgroundCheckpoint?: string;
  readonly lastAnswerPeak?: Peak;
  readonly lastCompression?: CompressionRecord;
  readonly restrictedMode?: readonly string[];
  /** Tokens of the earlier lines within `tokens`. */
  readonly earlierTokens?: number;
}

const sum = (xs: readonly { savedTokens: number }[]) => xs.reduce((n, x) => n + x.savedTokens, 0);

export function contextStatus(i: StatusInputs): ContextStatus {
  const usage = usageOf(i.tokens, i.budget);
  const level = levelFor(usage, i.thresholds);
  const watermark = i.state.history.filter((e) => e.kind === 'watermark');
  return {
    at: i.now,
    sessionId: i.state.id,
    title: i.state.title,
    tokens: i.tokens,
    budget: i.budget,
    usage,
    level,
    estimated: i.estimated,
    messages: i.state.active.length,
    archived: i.state.archivedCount,
    offloads: { count: i.state.offloads.length, savedTokens: sum(i.state.offloads) },
    truncations: { count: i.state.truncations.length, savedTokens: sum(i.state.truncations) },
    watermarkDrops: { count: watermark.length, savedTokens: sum(watermark) },
    history: i.state.history,
    recommendation: i.reliability?.warning ? `${LEVEL_ACTIONS[level]} ${i.reliability.warning}` : LEVEL_ACTIONS[level],
    warnings: i.warnings,
    checkpointsMade: i.state.checkpointsMade,
    checkpoints: i.state.checkpoints.map((c) => ({
      range: c.range,
      age: AGE_LABELS[c.age],
      tokens: c.currentTokens,
      originalTokens: c.originalTokens,
      summarizedBy: c.summarizedBy,
      ...(c.recall ? { recall: c.recall } : {}),
    })),
    goals: i.state.ledger.goals.filter((g) => g.status === 'active').length,
    decisions: i.state.ledger.decisions.length,
    driftDetections: i.state.history.filter((e) => e.name === 'drift-detected').length,
    ...recallOf(i.state.checkpoints),
    ...(i.reliability ? { reliability: i.reliability } : {}),
    ...(i.snapshots !== undefined ? { snapshots: i.snapshots } : {}),
    ...(i.backgroundCheckpoint ? { backgroundCheckpoint: i.backgroundCheckpoint } : {}),
    ...(i.lastAnswerPeak ? { lastAnswerPeak: i.lastAnswerPeak } : {}),
    ...(i.lastCompression ? { lastCompression: i.lastCompression } : {}),
    ...(i.restrictedMode && i.restrictedMode.length > 0 ? { restrictedMode: i.restrictedMode } : {}),
    ...(i.earlierTokens ? { earlierTokens: i.earlierTokens } : {}),
    ...(i.state.promptCache && i.state.promptCache.requests > 0 ? { promptCache: i.state.promptCache } : {}),
  };
}

function recallOf(checkpoints: SessionState['checkpoints']): { recall?: RecallFigures } {
  const checks = checkpoints.flatMap((c) => (c.recall ? [c.recall] : []));
  return checks.length > 0 ? { recall: sumRecallFigures(checks) } : {};
}
