/** The persisted state of a session (its `state.json`), and the guard it is read back through. */
import type { CompressionEvent } from './compressionEvent';
import { SCHEMA_VERSION, isMessage, isRecord } from './schema';
import type { OffloadRecord } from './tiers/offload';
import type { TruncationRecord } from './tiers/truncateInputs';
import type { Message } from './types';

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
}

export function emptyState(id: string, now: number): SessionState {
  return { schema: SCHEMA_VERSION, id, title: '', createdAt: now, updatedAt: now, active: [], archivedCount: 0, offloads: [], truncations: [], history: [] };
}

const isArrayOf = <T>(v: unknown, guard: (x: unknown) => x is T): v is T[] => Array.isArray(v) && v.every(guard);

const isOffload = (v: unknown): v is OffloadRecord =>
  isRecord(v) && typeof v.callId === 'string' && typeof v.file === 'string' && typeof v.tokens === 'number' && typeof v.savedTokens === 'number';

const isTruncation = (v: unknown): v is TruncationRecord =>
  isRecord(v) && typeof v.callId === 'string' && typeof v.path === 'string' && typeof v.savedTokens === 'number';

const isEvent = (v: unknown): v is CompressionEvent =>
  isRecord(v) && typeof v.at === 'number' && typeof v.tier === 'string' && typeof v.savedTokens === 'number' && typeof v.detail === 'string';

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
    isArrayOf(v.history, isEvent)
  );
}

/** Parses a state file; undefined when it is corrupt or from another schema. */
export function parseSessionState(text: string): SessionState | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isSessionState(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
