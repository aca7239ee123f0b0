/**
 * One writer per session (design §10): the window that opens a session holds its lock (kept alive by a
 * heartbeat) until it closes or clears it. A session another window writes is left to it, and the user is
 * told once; work here continues in a new session.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../engine/host/display';
import type { Logger, Store } from '../engine/host/ports';
import { acquireSessionLock, WriterLockedError } from '../engine/host/storage';

/** A session lock this window holds. */
export interface HeldLock {
  release(): Promise<void>;
}

export class SessionLocks {
  /** Sessions another window writes, already said once. */
  private readonly refused = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  /** The session's lock; 'refused' when another window writes it, undefined when no lock can be written (work goes on). */
  async take(id: string): Promise<HeldLock | 'refused' | undefined> {
    try {
      const lock = await acquireSessionLock(this.store, id, { purpose: 'A VS Code window' });
      const heartbeat = lock.startHeartbeat(undefined, () =>
        this.logger.warn(`Another process took over session ${id} after this window stopped answering.`),
      );
      return {
        release: async () => {
          heartbeat.dispose();
          await lock.release().catch(() => undefined);
        },
      };
    } catch (e) {
      if (!(e instanceof WriterLockedError)) {
        // A lock that cannot be written (read-only storage) must not stop the conversation.
        this.logger.warn(`The lock of session ${id} could not be taken: ${errorMessage(e)}`);
        return undefined;
      }
      if (!this.refused.has(id)) {
        this.refused.add(id);
        void vscode.window.showWarningMessage(`ctx: ${e.message} ctx continues in a new session in this window.`);
      }
      return 'refused';
    }
  }
}
