/** The context status (seed 000): usage, level, what the tiers did, and what to do next. */
import { usageOf } from './budget';
import type { CompressionEvent } from './compressionEvent';
import { LEVEL_ACTIONS, levelFor, type Level, type LevelThresholds } from './levels';
import type { SessionState } from './sessionState';

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
}

export interface StatusInputs {
  readonly state: SessionState;
  readonly tokens: number;
  readonly budget: number;
  readonly estimated: boolean;
  readonly thresholds: LevelThresholds;
  readonly warnings: readonly string[];
  readonly now: number;
}

const sum = (xs: readonly { savedTokens: number }[]) => xs.reduce((n, x) => n + x.savedTokens, 0);

export function contextStatus(i: StatusInputs): ContextStatus {
  const usage = usageOf(i.tokens, i.budget);
  const level = levelFor(usage, i.thresholds);
  const watermark = i.state.history.filter((e) => e.tier === 'watermark');
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
    recommendation: LEVEL_ACTIONS[level],
    warnings: i.warnings,
  };
}
