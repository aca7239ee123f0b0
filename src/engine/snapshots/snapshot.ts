/**
 * A snapshot (design §7): the full state the model sees, saved to disk for recovery and rollback.
 * Unlike a checkpoint it is not part of the context and never changes after it is created.
 */
import { isEarlierLine, type EarlierLine } from '../model/earlierLine';
import type { Checkpoint } from '../model/checkpoint';
import { isCheckpoint } from '../model/checkpointGuard';
import { isLedger } from '../model/ledgerGuard';
import type { Ledger } from '../model/ledgerTypes';
import { SCHEMA_VERSION, isMessage, isRecord } from '../schema';
import type { OffloadRecord } from '../model/offloadRecord';
import type { Message } from '../types';

/** Why a snapshot was taken. */
export type SnapshotReason = 'manual' | 'before-checkpoint' | 'auto' | 'critical' | 'before-restore';

/** Every reason, in the order they are documented. */
export const SNAPSHOT_REASONS: readonly SnapshotReason[] = ['manual', 'before-checkpoint', 'auto', 'critical', 'before-restore'];

/** Exactly what the model sees: restoring a snapshot puts this back as it was. */
export interface SnapshotContent {
  readonly ledger: Ledger;
  readonly checkpoints: readonly Checkpoint[];
  /** Id of the tool call that was the watermark, when there was one. */
  readonly watermark?: string;
  readonly active: readonly Message[];
  readonly offloads: readonly OffloadRecord[];
  /** The earlier lines' pool (absent in snapshots taken before there was one). */
  readonly earlierLines?: readonly EarlierLine[];
}

/** A stored snapshot (`sessions/<id>/snapshots/<snapshotId>.json`). */
export interface Snapshot {
  readonly schema: number;
  /** Sortable by creation time, unique within the session. */
  readonly id: string;
  readonly sessionId: string;
  /** Shown to people, e.g. "Snapshot 3 · before checkpoint". */
  readonly name: string;
  readonly reason: SnapshotReason;
  /** Milliseconds since the epoch, when it was taken. */
  readonly at: number;
  /** Tokens of the context when it was taken. */
  readonly tokens: number;
  readonly messageCount: number;
  readonly checkpointCount: number;
  readonly content: SnapshotContent;
}

/**
 * A snapshot as listed: everything but the content. A file that could not be read back is
 * listed too, with `readable: false`, its file name as `name` and zero figures.
 */
export interface SnapshotSummary extends Omit<Snapshot, 'content'> {
  /** False for a corrupt or foreign file; such a file can only be removed. */
  readonly readable: boolean;
  /** Store path of the snapshot file. */
  readonly file: string;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isArrayOf = <T>(v: unknown, guard: (x: unknown) => x is T): v is T[] => Array.isArray(v) && v.every(guard);

/** True when `v` is a complete offload record, as kept in session state and snapshots. */
export function isOffloadRecord(v: unknown): v is OffloadRecord {
  return (
    isRecord(v) &&
    isString(v.callId) &&
    isString(v.toolName) &&
    isString(v.file) &&
    isNumber(v.tokens) &&
    isNumber(v.savedTokens) &&
    isString(v.kind) &&
    typeof v.isError === 'boolean' &&
    isNumber(v.at) &&
    typeof v.estimated === 'boolean'
  );
}

/** True for one of the known snapshot reasons. */
export function isSnapshotReason(v: unknown): v is SnapshotReason {
  return typeof v === 'string' && (SNAPSHOT_REASONS as readonly string[]).includes(v);
}

function isSnapshotContent(v: unknown): v is SnapshotContent {
  return (
    isRecord(v) &&
    isLedger(v.ledger) &&
    isArrayOf(v.checkpoints, isCheckpoint) &&
    (v.watermark === undefined || isString(v.watermark)) &&
    isArrayOf(v.active, isMessage) &&
    isArrayOf(v.offloads, isOffloadRecord) &&
    (v.earlierLines === undefined || isArrayOf(v.earlierLines, isEarlierLine))
  );
}

/** True when `v` is a snapshot of the current schema with well-formed content throughout. */
export function isSnapshot(v: unknown): v is Snapshot {
  return (
    isRecord(v) &&
    v.schema === SCHEMA_VERSION &&
    isString(v.id) &&
    isString(v.sessionId) &&
    isString(v.name) &&
    isSnapshotReason(v.reason) &&
    isNumber(v.at) &&
    isNumber(v.tokens) &&
    isNumber(v.messageCount) &&
    isNumber(v.checkpointCount) &&
    isSnapshotContent(v.content)
  );
}
