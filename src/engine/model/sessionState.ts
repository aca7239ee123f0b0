/** The persisted state of a session (its `state.json`), and the guard it is read back through. */
import type { Checkpoint } from './checkpoint';
import { isCheckpoint } from './checkpointGuard';
import { isEarlierLine, type EarlierLine } from './earlierLine';
import { isRetiredCheckpoint, type RetiredCheckpoint } from './retiredCheckpoint';
import type { CompressionEvent } from './compressionEvent';
import { isLedger } from './ledgerGuard';
import { EMPTY_LEDGER, type Ledger } from './ledgerTypes';
import { SCHEMA_VERSION, isMessage, isRecord } from '../schema';
import type { OffloadRecord } from './offloadRecord';
import type { TruncationRecord } from './truncationRecord';
import type { Message } from '../types';
import { isTimelinePoint, type TimelinePoint } from './timeline';
import { isFrozenContext, type FrozenContext } from './frozenContext';
import { isCacheTally, type CacheTally } from './cacheTally';
import { isAmount, isShare, isStateNumber, isTime } from './stateNumbers';

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
  /** Checkpoints made so far, aging and undoing aside (the reliability score counts them). */
  readonly checkpointsMade: number;
  /** What the last drift check put back, rendered; kept in the context until the next Tier 3. */
  readonly putBack: string;
  /** Lines of the summarized messages that no checkpoint holds, best kept: what the earlier lines' room shows (see `earlierLines`). */
  readonly earlierLines: readonly EarlierLine[];
  /** Tokens of room this request gives the earlier lines (0: none); taken back before the next request is measured. */
  readonly earlierRoom: number;
  /**
   * Tokens of that room that are free context rather than the floor the lines always have: only
   * there may lines a tool printed be shown (see `earlierLinesSection`). The room may be the floor
   * while part of it is free: then only that part shows them. @default 0
   */
  readonly earlierPrintedRoom?: number;
  /** Share of what must survive a compression that did survive the last one (1 before any). */
  readonly contextConfidence: number;
  /** False once the automatic snapshot at high usage was taken; armed again by the next Tier 3. */
  readonly autoSnapshotArmed: boolean;
  /**
   * True after the user undid a compression: no checkpoint is made on its own again before the
   * context is CRITICAL or the user compresses, so what the undo brought back stays. Cleared by the next Tier 3.
   */
  readonly checkpointsHeld: boolean;
  /** The session this one was started fresh from. */
  readonly parentSessionId?: string;
  /** One point per request: tokens before and after the steps, the level (see `timeline.ts`). */
  readonly timeline: readonly TimelinePoint[];
  /** Checkpoints an undo or the user took out of the context, kept so they can still be read and searched. */
  readonly retiredCheckpoints: readonly RetiredCheckpoint[];
  /**
   * The context message as last sent, unchanged until the next rebase (see `frozenContext.ts`); absent when the next
   * request renders it anew.
   */
  readonly frozenContext?: FrozenContext;
  /** What the session's requests met in the prompt cache, added up (see `cacheTally.ts`). @default EMPTY_CACHE_TALLY */
  readonly promptCache?: CacheTally;
}

/** The fields added after the first state files were written, with the values an old file means. */
const LATER_FIELDS = {
  ledger: EMPTY_LEDGER,
  checkpoints: [],
  checkpointsMade: 0,
  putBack: '',
  earlierLines: [],
  earlierRoom: 0,
  contextConfidence: 1,
  autoSnapshotArmed: true,
  checkpointsHeld: false,
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
  isRecord(v) && typeof v.callId === 'string' && typeof v.file === 'string' && isAmount(v.tokens) && isStateNumber(v.savedTokens);

const isTruncation = (v: unknown): v is TruncationRecord =>
  isRecord(v) && typeof v.callId === 'string' && typeof v.path === 'string' && isStateNumber(v.savedTokens);

const isEvent = (v: unknown): v is CompressionEvent =>
  isRecord(v) && isStateNumber(v.at) && typeof v.kind === 'string' && isStateNumber(v.savedTokens) && typeof v.detail === 'string';

/** Each field's check, in the order a problem is reported. */
const FIELD_CHECKS: readonly (readonly [keyof SessionState, (v: unknown) => boolean])[] = [
  ['schema', (v) => v === SCHEMA_VERSION],
  ['id', (v) => typeof v === 'string'],
  ['title', (v) => typeof v === 'string'],
  ['createdAt', isTime],
  ['updatedAt', isTime],
  ['active', (v) => isArrayOf(v, isMessage)],
  ['archivedCount', isAmount],
  ['watermark', (v) => v === undefined || typeof v === 'string'],
  ['pendingCheckpointTool', (v) => v === undefined || typeof v === 'string'],
  ['offloads', (v) => isArrayOf(v, isOffload)],
  ['truncations', (v) => isArrayOf(v, isTruncation)],
  ['history', (v) => isArrayOf(v, isEvent)],
  ['ledger', isLedger],
  ['checkpoints', (v) => isArrayOf(v, isCheckpoint)],
  ['checkpointsMade', isAmount],
  ['putBack', (v) => typeof v === 'string'],
  ['earlierLines', (v) => isArrayOf(v, isEarlierLine)],
  ['earlierRoom', isAmount],
  ['earlierPrintedRoom', (v) => v === undefined || isAmount(v)],
  ['contextConfidence', isShare],
  ['autoSnapshotArmed', (v) => typeof v === 'boolean'],
  ['checkpointsHeld', (v) => typeof v === 'boolean'],
  ['parentSessionId', (v) => v === undefined || typeof v === 'string'],
  ['timeline', (v) => isArrayOf(v, isTimelinePoint)],
  ['retiredCheckpoints', (v) => isArrayOf(v, isRetiredCheckpoint)],
  ['frozenContext', (v) => v === undefined || isFrozenContext(v)],
  ['promptCache', (v) => v === undefined || isCacheTally(v)],
];

/** The first field that is missing or of the wrong type, or undefined for a valid state. */
export function sessionStateProblem(v: unknown): string | undefined {
  if (!isRecord(v)) return 'it is not an object';
  const wrong = FIELD_CHECKS.find(([field, check]) => !check(v[field]));
  if (wrong === undefined) return undefined;
  const value = v[wrong[0]];
  // A number of the right type that fails its check is out of range: say which value, so the warning is plain.
  if (typeof value === 'number') return `its field "${wrong[0]}" holds ${value}, outside the range that field can have`;
  return `its field "${wrong[0]}" is missing or of the wrong type`;
}

export function isSessionState(v: unknown): v is SessionState {
  return sessionStateProblem(v) === undefined;
}

/** Fields renamed since the first state files: the old name's value is the new one's. */
const RENAMED_FIELDS: readonly (readonly [oldName: string, newName: keyof SessionState])[] = [
  ['compressions', 'checkpointsMade'],
  ['restored', 'putBack'],
];

/** `value` with the fields of an older state file under their current names. */
function renamedFields(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const history = renamedEventFields(value.history);
  if (!RENAMED_FIELDS.some(([old]) => old in value) && history === value.history) return value;
  const out: Record<string, unknown> = { ...value, history };
  for (const [old, now] of RENAMED_FIELDS) {
    if (!(old in out)) continue;
    // The old name is what every write of that version set, so it wins over a default.
    out[now] = out[old];
    delete out[old];
  }
  return out;
}

/**
 * A state written while a flag said whether the earlier lines' room was free: the printed room
 * alone says it now (none when the flag was not set).
 */
function withoutRoomFreeFlag(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!('earlierRoomFree' in value)) return value;
  const { earlierRoomFree, ...rest } = value;
  return earlierRoomFree === true ? rest : { ...rest, earlierPrintedRoom: 0 };
}

/**
 * The history with each event's kind under its current name: files written before the rename say
 * `tier`. An event that has both (a journal line replayed onto an older base) keeps its `kind`.
 * Anything that is not a list of records is returned as it is, for the guard to judge.
 */
function renamedEventFields(history: unknown): unknown {
  if (!Array.isArray(history) || !history.some((e) => isRecord(e) && 'tier' in e)) return history;
  return history.map((e: unknown) => {
    if (!isRecord(e) || !('tier' in e)) return e;
    const { tier, ...rest } = e;
    return 'kind' in rest ? rest : { ...rest, kind: tier };
  });
}

/** What a JSON value read back as a session's state is. */
export type SessionStateReading =
  | { readonly kind: 'state'; readonly state: SessionState }
  | { readonly kind: 'newer'; readonly schema: number }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * Reads a parsed state: fields added since the first state files get the values an old file
 * means; a schema above this version is newer (never to be overwritten). `sessionId`, when
 * given, must be the state's own.
 */
export function readSessionStateValue(value: unknown, sessionId?: string): SessionStateReading {
  if (!isRecord(value)) return { kind: 'unreadable', reason: 'it is not an object' };
  if (typeof value.schema === 'number' && value.schema > SCHEMA_VERSION) return { kind: 'newer', schema: value.schema };
  const withDefaults = { ...LATER_FIELDS, ...withoutRoomFreeFlag(renamedFields(value)) };
  const problem = sessionStateProblem(withDefaults);
  if (problem !== undefined) return { kind: 'unreadable', reason: problem };
  const state = withDefaults as unknown as SessionState;
  if (sessionId !== undefined && state.id !== sessionId) {
    return { kind: 'unreadable', reason: `it is the state of another session (${state.id})` };
  }
  return { kind: 'state', state };
}

/** Parses a state file; undefined when it is corrupt or from another schema. */
export function parseSessionState(text: string): SessionState | undefined {
  try {
    const reading = readSessionStateValue(JSON.parse(text));
    return reading.kind === 'state' ? reading.state : undefined;
  } catch {
    return undefined;
  }
}
