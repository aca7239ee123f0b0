/**
 * Opening a stored session without ever resetting it silently. The state is its base plus its
 * journal; the archive is the source of truth for messages. A state that cannot be used (cut
 * short, damaged, of the wrong shape, from a newer ctx) is moved aside, never overwritten, and
 * the session is rebuilt from the archive and the latest snapshot, saying what was recovered.
 * A state behind the archive (a crash between archiving and saving) gets the missing messages
 * back for the session to take in.
 */
import { Archive, parseArchive, type ArchiveReadResult } from '../archive';
import { errorMessage } from '../errors';
import { rebuildSession } from './sessionRebuild';
import { loadedNotice, rebuildNotice } from './sessionLoadNotice';
import { sessionPaths, type SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';
import type { Snapshot } from '../snapshots/snapshot';
import { SnapshotStore } from '../snapshots/snapshotStore';
import { sideFilePath } from '../storage/sideFile';
import { sessionJournalOptions, type SessionJournalDeps } from '../storage/sessionJournal';
import { StateJournal } from '../storage/stateJournal';
import { isLinkFailure } from '../storage/storageError';
import type { Message } from '../types';

export interface LoadedSession {
  readonly state: SessionState;
  /** Saves the state from now on (the first save after a rebuild writes a new base). */
  readonly journal: StateJournal<SessionState>;
  /** Plain words for the user when anything was not in order; undefined when all was. */
  readonly notice?: string;
  /**
   * Messages the state does not hold yet, oldest first: take them in through the normal intake
   * (offload, ledger), without archiving them again unless they are also in `unarchived`.
   */
  readonly unreconciled: readonly Message[];
  /** Messages that must be appended to the archive: the state has them (or `unreconciled` does), the archive does not. */
  readonly unarchived: readonly Message[];
  /** What the archive held, read once. */
  readonly archive: ArchiveReadResult;
  /** The archive was a link and was set aside: a new one starts empty, so nothing counts as archived yet. */
  readonly archiveReplaced?: boolean;
}

/**
 * Loads a session; undefined when nothing is stored for it. Throws the store's error only when an
 * unusable state file could not be moved aside (so it is never overwritten).
 */
export async function loadSession(id: string, deps: SessionJournalDeps): Promise<LoadedSession | undefined> {
  const paths = sessionPaths(id);
  const options = sessionJournalOptions(id, deps);
  const [loaded, own] = await Promise.all([StateJournal.load(options), readOwnArchive(deps, paths)]);
  const { archive } = own;
  if (loaded.kind === 'loaded') {
    const { unreconciled, unarchived } = reconcile(loaded.state, archive);
    const notice = loadedNotice({
      sessionId: id,
      journalNotes: loaded.notes,
      ...(loaded.leftOut ? { leftOut: loaded.leftOut } : {}),
      unreconciled: unreconciled.length,
      unarchived: unarchived.length,
      archive,
    });
    const said = joinNotices(own.notice, notice);
    const replaced = own.notice !== undefined ? { archiveReplaced: true } : {};
    return {
      state: loaded.state,
      journal: loaded.journal,
      unreconciled,
      unarchived,
      archive,
      ...replaced,
      ...(said ? { notice: said } : {}),
    };
  }
  if (loaded.kind === 'missing' && archive.messages.length === 0 && archive.tornTailMessage === undefined) return undefined;
  const keptAs = loaded.kind === 'missing' ? [] : await moveAside(deps, paths, loaded.kind === 'newer' ? 'newer-schema' : 'unreadable');
  const snapshot = await latestSnapshot(deps, id);
  const rebuilt = rebuildSession(id, deps.clock.now(), archive, snapshot);
  const torn = archive.tornTailMessage ? [archive.tornTailMessage] : [];
  const notice = rebuildNotice({
    sessionId: id,
    failure: loaded,
    keptAs,
    archive,
    ...(rebuilt.snapshot ? { snapshot: rebuilt.snapshot } : {}),
    reconciled: rebuilt.unreconciled.length + torn.length,
  });
  return {
    state: rebuilt.state,
    journal: StateJournal.create(options),
    notice: joinNotices(own.notice, notice) ?? notice,
    unreconciled: [...rebuilt.unreconciled, ...torn],
    unarchived: torn,
    archive,
  };
}

/**
 * Messages archived after the state's last save, by their position in the archive; and messages
 * of the state, or the torn end of the archive, that the archive does not hold.
 */
function reconcile(state: SessionState, archive: ArchiveReadResult): { unreconciled: Message[]; unarchived: Message[] } {
  const unreconciled = archive.messages.filter((_, i) => archive.positions[i] >= state.archivedCount);
  const archivedIds = new Set(archive.messages.map((m) => m.id));
  const unarchived = state.active.filter((m) => !archivedIds.has(m.id));
  const torn = archive.tornTailMessage;
  if (torn && !archivedIds.has(torn.id)) {
    if (!unarchived.some((m) => m.id === torn.id)) unarchived.push(torn);
    if (!state.active.some((m) => m.id === torn.id)) unreconciled.push(torn);
  }
  return { unreconciled, unarchived };
}

/**
 * The session's archive, read only when it is its own file: an archive that is a link or a hard
 * link (to another session's archive, or to any file outside) is never read, appended to or cut;
 * it is moved aside, untouched, and a private archive is written again from the saved state.
 */
async function readOwnArchive(deps: SessionJournalDeps, paths: SessionPaths): Promise<{ archive: ArchiveReadResult; notice?: string }> {
  try {
    return { archive: await new Archive(deps.store, paths.archive).read() };
  } catch (e) {
    if (!isLinkFailure(e)) throw e;
    const aside = await freeSidePath(deps, paths.archive, 'linked');
    await deps.store.rename(paths.archive, aside);
    return {
      archive: parseArchive(''),
      notice:
        `The archive of this session was another file under a second name (${errorMessage(e)}), so it was not read or changed; ` +
        `the link was moved to ${aside} and a new archive is written from the messages of the saved state ` +
        '(messages that had left the context are only in the moved file).',
    };
  }
}

function joinNotices(first: string | undefined, second: string | undefined): string | undefined {
  return first === undefined ? second : second === undefined ? first : `${first} ${second}`;
}

/** A dated side name next to `path` that nothing uses yet. */
async function freeSidePath(deps: SessionJournalDeps, path: string, label: string): Promise<string> {
  let aside = sideFilePath(path, label, deps.clock.now());
  for (let n = 2; (await deps.store.kindOf(aside)) !== undefined; n++) aside = sideFilePath(path, label, deps.clock.now(), n);
  return aside;
}

/** Moves the base and the journal aside under dated names; returns where they went. */
async function moveAside(deps: SessionJournalDeps, paths: SessionPaths, label: string): Promise<string[]> {
  const kept: string[] = [];
  for (const path of [paths.state, paths.journal]) {
    if ((await deps.store.kindOf(path)) === undefined) continue;
    const aside = await freeSidePath(deps, path, label);
    await deps.store.rename(path, aside);
    kept.push(aside);
  }
  return kept;
}

/** The newest snapshot that can be read; undefined when there is none or the folder cannot be read. */
async function latestSnapshot(deps: SessionJournalDeps, id: string): Promise<Snapshot | undefined> {
  const snapshots = new SnapshotStore(deps.store, id, deps.clock);
  const listed = await snapshots.list().catch(() => []);
  for (const summary of listed) {
    if (!summary.readable) continue;
    const snapshot = await snapshots.read(summary.id).catch(() => undefined);
    if (snapshot) return snapshot;
  }
  return undefined;
}
