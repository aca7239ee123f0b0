/** What ctx offers other extensions (and its own integration tests) through `extension.exports`. */
import type { SessionManager } from './sessions';

export interface CtxApi {
  /** The folder holding every session's state, archive and offloaded results. */
  readonly storageRoot: string;
  /** Main-thread time `activate()` took, in milliseconds (the tokenizer is built later, in a worker). */
  readonly activationMs: number;
  /** The id of the session the status bar follows, if any. */
  currentSessionId(): string | undefined;
  /** Resolves when no @ctx turn is running. */
  whenIdle(): Promise<void>;
}

export function createApi(storageRoot: string, sessions: SessionManager, activationMs: number): CtxApi {
  return { storageRoot, activationMs, currentSessionId: () => sessions.current?.session.id, whenIdle: () => sessions.whenIdle() };
}
