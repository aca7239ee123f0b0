/**
 * Each checkpoint as the dashboard shows it: its range and age, its size against the target of its
 * age, what it stands for, who wrote it, the drift check's findings after it, and its recall
 * figures when it carries some. Checkpoints an undo or the user took out are listed apart.
 */
import { AGE_LABELS, targetTokensFor } from '../checkpoints/aging';
import type { Checkpoint } from '../checkpoints/checkpoint';
import type { RetiredReason } from '../checkpoints/retiredCheckpoint';
import { isRecord } from '../schema';
import type { SessionState } from '../session/sessionState';
import { itemId } from './itemIds';

export interface DriftFinding {
  readonly at: number;
  readonly detail: string;
}

/** A figure of a checkpoint's recall, e.g. "Decisions: 100%". */
export interface RecallFigure {
  readonly label: string;
  readonly value: string;
}

export interface CheckpointCard {
  readonly id: string;
  /** The item id its actions use. */
  readonly itemId: string;
  /** 1-based, oldest first. */
  readonly number: number;
  readonly range: string;
  readonly ageLabel: string;
  readonly tokens: number;
  /** The size its age aims at. */
  readonly target: number;
  readonly originalTokens: number;
  readonly messages: number;
  readonly summarizedBy: string;
  readonly createdAt: number;
  readonly compressedAt?: number;
  readonly compressionCount: number;
  readonly drift: readonly DriftFinding[];
  readonly recall: readonly RecallFigure[];
}

export interface RetiredCard {
  readonly id: string;
  readonly range: string;
  readonly reason: RetiredReason;
  readonly at: number;
  readonly tokens: number;
  readonly summarizedBy: string;
}

export function checkpointCards(state: SessionState, checkpointTokens: number): CheckpointCard[] {
  const drift = new Map<string, DriftFinding[]>();
  for (const e of state.history) {
    if (e.tier !== 'drift' || !e.checkpointId) continue;
    drift.set(e.checkpointId, [...(drift.get(e.checkpointId) ?? []), { at: e.at, detail: e.detail }]);
  }
  return state.checkpoints.map((c, i) => ({
    id: c.id,
    itemId: itemId('checkpoint', c.id),
    number: i + 1,
    range: c.range,
    ageLabel: AGE_LABELS[c.age],
    tokens: c.currentTokens,
    target: targetTokensFor(c.age, checkpointTokens),
    originalTokens: c.originalTokens,
    messages: c.messageIds.length,
    summarizedBy: c.summarizedBy,
    createdAt: c.createdAt,
    ...(c.compressedAt !== undefined ? { compressedAt: c.compressedAt } : {}),
    compressionCount: c.compressionCount,
    drift: drift.get(c.id) ?? [],
    recall: recallFigures(c),
  }));
}

export function retiredCards(state: SessionState): RetiredCard[] {
  return [...state.retiredCheckpoints].reverse().map((r) => ({
    id: r.checkpoint.id,
    range: r.checkpoint.range,
    reason: r.reason,
    at: r.at,
    tokens: r.checkpoint.currentTokens,
    summarizedBy: r.checkpoint.summarizedBy,
  }));
}

/**
 * The recall figures a checkpoint carries, whatever their shape: a share (0 to 1) shows as a
 * percentage, a record of numbers one figure each. None when it carries none.
 */
export function recallFigures(c: Checkpoint): RecallFigure[] {
  const recall: unknown = (c as Checkpoint & { readonly recall?: unknown }).recall;
  if (typeof recall === 'number') return [{ label: 'Recall', value: figure(recall, true) }];
  if (!isRecord(recall)) return [];
  return Object.entries(recall).flatMap(([key, value]) =>
    typeof value === 'number' && Number.isFinite(value) ? [{ label: words(key), value: figure(value) }] : [],
  );
}

/** A share as a percentage; in a record, where 0 and 1 may be counts, only a fraction between them reads as a share. */
function figure(value: number, share = false): string {
  const isShare = value >= 0 && value <= 1 && (share || !Number.isInteger(value));
  return isShare ? `${Math.round(value * 100)}%` : value.toLocaleString('en-US');
}

/** `camelCase` or `snake_case` keys as words: "found facts". */
function words(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
