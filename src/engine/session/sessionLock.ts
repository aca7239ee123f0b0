/** The one-writer rule for a session: its lock lives in the session's folder. */
import type { Clock, Store } from '../ports';
import { sessionPaths } from '../model/sessionPaths';
import type { ProcessProbe } from '../storage/processProbe';
import { WriterLock } from '../storage/writerLock';

export interface SessionLockOptions {
  /** Who writes, in words people read when they are refused: "VS Code window", "ctx replay". */
  readonly purpose: string;
  readonly probe?: ProcessProbe;
  readonly clock?: Clock;
  readonly staleAfterMs?: number;
}

/**
 * Takes the session's writer lock. Throws `WriterLockedError` (owner, process, host, since when)
 * when another live process writes the session: show the session read-only and say why.
 */
export function acquireSessionLock(store: Store, sessionId: string, options: SessionLockOptions): Promise<WriterLock> {
  return WriterLock.acquire({ store, path: sessionPaths(sessionId).lock, ...options });
}
