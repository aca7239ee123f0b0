/**
 * The storage side of a session, wired the way ContextSession takes its storage: the archive
 * first (messages it could not take are retried before the next ones), then the state through
 * its journal. Loading goes through loadSession, and whatever it hands back is taken in. Used by
 * the fault tests in process and by the child processes that are killed mid-save.
 */
import { Archive } from '../../../src/engine/archive';
import type { Clock, Store } from '../../../src/engine/ports';
import { loadSession } from '../../../src/engine/session/sessionLoad';
import { sessionJournalOptions } from '../../../src/engine/storage/sessionJournal';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { emptyState, type SessionState } from '../../../src/engine/model/sessionState';
import { StateJournal } from '../../../src/engine/storage/stateJournal';
import { message, textBlock, toolResultBlock, type Message } from '../../../src/engine/types';

/** Message number `n` of a test conversation; every seventh is a large tool result. */
export function numberedMessage(n: number): Message {
  if (n % 7 === 0) return message(`m${n}`, 'tool', [toolResultBlock(`c${n}`, `result ${n} `.repeat(2_000), false, 'read_file')]);
  return message(`m${n}`, n % 2 === 0 ? 'assistant' : 'user', [textBlock(`message ${n}: ${'words '.repeat(n % 13)}`)]);
}

/** The number in a test message's id. */
export const messageNumber = (m: Message): number => Number(m.id.slice(1));

export class JournaledSession {
  /** Notices of the load, if any. */
  readonly notices: string[] = [];
  /** Writes that failed (and were retried or will be). */
  failures = 0;
  private pending: Message[] = [];

  private constructor(
    private readonly archive: Archive,
    private readonly journal: StateJournal<SessionState>,
    public state: SessionState,
  ) {}

  /** Opens the stored session, taking in what the archive has beyond the state; or starts it. */
  static async open(store: Store, id: string, clock: Clock, minCompactBytes = 16 * 1024): Promise<JournaledSession> {
    const deps = { store, clock, compaction: { minCompactBytes, compactRatio: 1 } };
    const loaded = await loadSession(id, deps);
    const archive = new Archive(store, sessionPaths(id).archive);
    if (!loaded) return new JournaledSession(archive, StateJournal.create(sessionJournalOptions(id, deps)), emptyState(id, clock.now()));
    const session = new JournaledSession(archive, loaded.journal, loaded.state);
    if (loaded.notice) session.notices.push(loaded.notice);
    session.pending = [...loaded.unarchived];
    const known = new Set(session.state.active.map((m) => m.id));
    const adopted = loaded.unreconciled.filter((m) => !known.has(m.id));
    session.state = {
      ...session.state,
      active: [...session.state.active, ...adopted],
      archivedCount:
        session.state.archivedCount + loaded.unreconciled.length - loaded.unarchived.filter((m) => loaded.unreconciled.includes(m)).length,
    };
    await session.flush();
    return session;
  }

  /** Archives and saves one message; failures are counted and retried on the next call. */
  async add(m: Message): Promise<void> {
    this.pending.push(m);
    this.state = { ...this.state, active: [...this.state.active, m], updatedAt: this.state.updatedAt + 1 };
    await this.flush();
  }

  /** True when every message is in the archive. */
  get archiveComplete(): boolean {
    return this.pending.length === 0;
  }

  /** Retries the archive, then saves the state. */
  async flush(): Promise<void> {
    if (this.pending.length > 0) {
      try {
        await this.archive.append(this.pending);
        this.state = { ...this.state, archivedCount: this.state.archivedCount + this.pending.length };
        this.pending = [];
      } catch {
        this.failures++;
      }
    }
    try {
      await this.journal.save(this.state);
    } catch {
      this.failures++;
    }
  }
}
