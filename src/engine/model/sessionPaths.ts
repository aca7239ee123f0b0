/** Where a session's files live inside the store: one folder per session. */
import { randomChars } from '../ids';

export const SESSIONS_FOLDER = 'sessions';

export interface SessionPaths {
  readonly folder: string;
  /** The state's base: the whole state as of its last compaction. */
  readonly state: string;
  /** The state's journal: what changed since the base, one line per save. */
  readonly journal: string;
  /** Names the one process that may write the session. */
  readonly lock: string;
  readonly archive: string;
  readonly offloaded: string;
  /** Folder of the session's snapshots, one JSON file each. */
  readonly snapshots: string;
}

export function sessionPaths(sessionId: string): SessionPaths {
  const folder = `${SESSIONS_FOLDER}/${sessionId}`;
  return {
    folder,
    state: `${folder}/state.json`,
    journal: `${folder}/state.journal.jsonl`,
    lock: `${folder}/writer.lock`,
    archive: `${folder}/archive.jsonl`,
    offloaded: `${folder}/offloaded`,
    snapshots: `${folder}/snapshots`,
  };
}

/**
 * A new session id: sortable by creation time, unique enough for one workspace. A session made
 * again from the same input (a replay) passes that input's fingerprint instead of random
 * characters: the id is part of paths the context shows, so a random one would make the same
 * replay count differently from run to run.
 */
export function newSessionId(now: number, fingerprint?: string): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `s-${stamp}-${fingerprint?.slice(0, 6) ?? randomChars(6)}`;
}

/** Session ids are folder names: only what newSessionId makes is accepted. */
export function isSessionId(v: unknown): v is string {
  return typeof v === 'string' && /^s-[0-9]{8}-[0-9]{6}-[a-z0-9]{1,12}$/.test(v);
}
