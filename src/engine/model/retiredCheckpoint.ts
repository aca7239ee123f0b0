/**
 * Checkpoints that left the context without being replaced by a newer summary: the one an undone
 * compression made, or one the user dropped. They are kept, so their summaries can still be read
 * and searched (`ctx_recover`, `/recover`); the archive still has every original they covered.
 */
import { isRecord } from '../schema';
import type { Checkpoint } from './checkpoint';
import { isCheckpoint } from './checkpointGuard';
import { isStateNumber } from './stateNumbers';

export type RetiredReason = 'undone' | 'dropped';

export interface RetiredCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly reason: RetiredReason;
  readonly at: number;
  /** The snapshot an undo restored: it is not undone twice. */
  readonly snapshotId?: string;
}

/** Retired checkpoints kept in the state; older ones are still in the snapshots taken before each undo. */
export const MAX_RETIRED_CHECKPOINTS = 50;

/** The list with these added, the oldest forgotten past the limit. */
export function withRetired(list: readonly RetiredCheckpoint[], added: readonly RetiredCheckpoint[]): RetiredCheckpoint[] {
  return [...list, ...added].slice(-MAX_RETIRED_CHECKPOINTS);
}

/** True for a well-formed retired checkpoint read back from storage. */
export function isRetiredCheckpoint(v: unknown): v is RetiredCheckpoint {
  return (
    isRecord(v) &&
    isCheckpoint(v.checkpoint) &&
    (v.reason === 'undone' || v.reason === 'dropped') &&
    isStateNumber(v.at) &&
    (v.snapshotId === undefined || typeof v.snapshotId === 'string')
  );
}
