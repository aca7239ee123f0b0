/** What ctx offers other extensions (and its own integration tests) through `extension.exports`. */
import type { SessionManager } from './sessions';

export interface CtxApi {
  /** The folder holding every session's state, archive and offloaded results. */
  readonly storageRoot: string;
  /** The id of the session the status bar follows, if any. */
  currentSessionId(): string | undefined;
}

export function createApi(storageRoot: string, sessions: SessionManager): CtxApi {
  return { storageRoot, currentSessionId: () => sessions.current?.session.id };
}
