/** The persisted state of a session (its `state.json`), and the guard it is read back through. */
import type { Checkpoint } from '../checkpoints/checkpoint';
import { isCheckpoint } from '../checkpoints/checkpointGuard';
import { isRetiredCheckpoint, type RetiredCheckpoint } from '../checkpoints/retiredCheckpoint';
import type { CompressionEvent } from '../compressionEvent';
import { isLedger } from '../ledger/ledgerGuard';
import { EMPTY_LEDGER, type Ledger } from '../ledger/ledgerTypes';
import { SCHEMA_VERSION, isMessage, isRecord } from '../schema';
import type { OffloadRecord } from '../tiers/offload';
import type { TruncationRecord } from '../tiers/truncateInputs';
import type { Message } from '../types';
import { isTimelinePoint, type TimelinePoint } from './timeline';

export interface SessionState {
  readonly schema: number;
  readonly id: string;
  /** The first user request, shortened: how the session is shown in lists. */
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** What the model sees, in order. */
  readonly active: readonly Message[];
  /** Messages appended to the archive so far. */
  readonly archivedCount: number;
  /** Id of the tool call that is the watermark; tool blocks before it are dropped. */
  readonly watermark?: string;
  /** A checkpoint was requested by this tool and is resolved on the next request. */
  readonly pendingCheckpointTool?: string;
  readonly offloads: readonly OffloadRecord[];
  readonly truncations: readonly TruncationRecord[];
  readonly history: readonly CompressionEvent[];
  /** What is never summarized: intent, goals, decisions, user messages, the tool record. */
  readonly ledger: Ledger;
  /** Summaries standing in for older messages, oldest first. */
  readonly checkpoints: readonly Checkpoint[];
  /** Tier 3 runs so far (the reliability score's compression count). */
  readonly compressions: number;
  /** What the last drift check restored, rendered; kept in the context until the next Tier 3. */
  readonly restored: string;
  /** Share of what must survive a compression that did survive the last one (1 before any). */
  readonly contextConfidence: number;
  /** False once the automatic snapshot at high usage was taken; armed again by the next Tier 3. */
  readonly autoSnapshotArmed: boolean;
  /** The session this one was started fresh from. */
  readonly parentSessionId?: string;
  /** One point per request: tokens before and after the steps, the level (see `timeline.ts`). */
  readonly timeline: readonly TimelinePoint[];
  /** Checkpoints an undo or the user took out of the context, kept so they can still be read and searched. */
  readonly retiredCheckpoints: readonly RetiredCheckpoint[];
}

/** The fields added after the first state files were written, with the values an old file means. */
const LATER_FIELDS = {
  ledger: EMPTY_LEDGER,
  checkpoints: [],
  compressions: 0,
  restored: '',
  contextConfidence: 1,
  autoSnapshotArmed: true,
  timeline: [],
  retiredCheckpoints: [],
} satisfies Partial<SessionState>;

export function emptyState(id: string, now: number): SessionState {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: '',
    createdAt: now,
    updatedAt: now,
    active: [],
    archivedCount: 0,
    offloads: [],
    truncations: [],
    history: [],
    ...LATER_FIELDS,
  };
}

const isArrayOf = <T>(v: unknown, guard: (x: unknown) => x is T): v is T[] => Array.isArray(v) && v.every(guard);

const isOffload = (v: unknown): v is OffloadRecord =>
  isRecord(v) &&
  typeof v.callId === 'string' &&
  typeof v.file === 'string' &&
  typeof v.tokens === 'number' &&
  typeof v.savedTokens === 'number';

const isTruncation = (v: unknown): v is TruncationRecord =>
  isRecord(v) && typeof v.callId === 'string' && typeof v.path === 'string' && typeof v.savedTokens === 'number';

const isEvent = (v: unknown): v is CompressionEvent =>
  isRecord(v) &&
  typeof v.at === 'number' &&
  typeof v.tier === 'string' &&
  typeof v.savedTokens === 'number' &&
  typeof v.detail === 'string';

export function isSessionState(v: unknown): v is SessionState {
  return (
    isRecord(v) &&
    v.schema === SCHEMA_VERSION &&
    typeof v.id === 'string' &&
    typeof v.title === 'string' &&
    typeof v.createdAt === 'number' &&
    typeof v.updatedAt === 'number' &&
    isArrayOf(v.active, isMessage) &&
    typeof v.archivedCount === 'number' &&
    (v.watermark === undefined || typeof v.watermark === 'string') &&
    (v.pendingCheckpointTool === undefined || typeof v.pendingCheckpointTool === 'string') &&
    isArrayOf(v.offloads, isOffload) &&
    isArrayOf(v.truncations, isTruncation) &&
    isArrayOf(v.history, isEvent) &&
    isLedger(v.ledger) &&
    isArrayOf(v.checkpoints, isCheckpoint) &&
    typeof v.compressions === 'number' &&
    typeof v.restored === 'string' &&
    typeof v.contextConfidence === 'number' &&
    typeof v.autoSnapshotArmed === 'boolean' &&
    (v.parentSessionId === undefined || typeof v.parentSessionId === 'string') &&
    isArrayOf(v.timeline, isTimelinePoint) &&
    isArrayOf(v.retiredCheckpoints, isRetiredCheckpoint)
  );
}

/** Parses a state file; undefined when it is corrupt or from another schema. */
export function parseSessionState(text: string): SessionState | undefined {
  try {
    const value: unknown = JSON.parse(text);
    const withDefaults = isRecord(value) ? { ...LATER_FIELDS, ...value } : value;
    return isSessionState(withDefaults) ? withDefaults : undefined;
  } catch {
    return undefined;
  }
}
