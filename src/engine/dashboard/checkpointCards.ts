/**
 * Each checkpoint as the dashboard shows it: its range and age, its size against the target of its
 * age, what it stands for, who wrote it, the drift check's findings after it, and its recall
 * figures when the recall check ran on it. Checkpoints an undo or the user took out are listed apart.
 */
import { AGE_LABELS, targetTokensFor } from '../checkpoints/aging';
import type { Checkpoint } from '../model/checkpoint';
import type { RetiredReason } from '../model/retiredCheckpoint';
import { recallConfidence } from '../model/recallFigures';
import type { SessionState } from '../model/sessionState';
import { itemId } from './itemIds';

export interface DriftFinding {
  readonly at: number;
  readonly detail: string;
}

/** A figure of a checkpoint's recall, e.g. "Found by search: 2". */
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
    if (e.kind !== 'drift' || !e.checkpointId) continue;
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

/** The recall check's figures for a checkpoint, when one ran: what it found of the span's facts, and the confidence they give. */
export function recallFigures(c: Checkpoint): RecallFigure[] {
  const r = c.recall;
  if (!r) return [];
  return [
    { label: 'Facts checked', value: count(r.extracted) },
    { label: 'Kept in the context', value: count(r.kept) },
    { label: 'Found by search', value: count(r.found) },
    { label: 'Put back', value: count(r.putBack) },
    { label: 'Lost', value: count(r.lost) },
    { label: 'Recall', value: `${Math.round(recallConfidence(r) * 100)}%` },
  ];
}

const count = (n: number): string => n.toLocaleString('en-US');
