/**
 * Where a session's state is journaled and how it is read back: the options every opener of a
 * session's state shares (loading, branching, searching a stored session), and a read-only peek.
 */
import type { Clock, Store } from '../ports';
import { sessionPaths } from '../model/sessionPaths';
import { readSessionStateValue, type SessionState } from '../model/sessionState';
import { StateJournal, type StateJournalOptions } from './stateJournal';

/** What opening a session's state needs. */
export interface SessionJournalDeps {
  readonly store: Store;
  readonly clock: Clock;
  /** When the journal is compacted into a new base (see StateJournalOptions). */
  readonly compaction?: { readonly compactRatio?: number; readonly minCompactBytes?: number };
}

/** The journal options of a session's state. */
export function sessionJournalOptions(id: string, deps: SessionJournalDeps, readOnly = false): StateJournalOptions<SessionState> {
  const paths = sessionPaths(id);
  return {
    store: deps.store,
    paths: { base: paths.state, journal: paths.journal },
    read: (value) => readSessionStateValue(value, id),
    clock: deps.clock,
    readOnly,
    ...deps.compaction,
  };
}

/**
 * The stored state as it stands (base and journal), for listings and searches: moves nothing,
 * rebuilds nothing; undefined when there is none or it cannot be read.
 */
export async function peekSessionState(store: Store, id: string, clock: Clock): Promise<SessionState | undefined> {
  const loaded = await StateJournal.load(sessionJournalOptions(id, { store, clock }, true)).catch(() => undefined);
  return loaded?.kind === 'loaded' ? loaded.state : undefined;
}
