/** What a stored session holds that the recovery index searches: its offloaded files and its archive. */
import { Archive } from '../archive';
import { systemClock, type Store, type StoreEntry } from '../ports';
import { peekSessionState } from '../storage/sessionJournal';
import { archivedRunOf, type ArchivedRun } from '../model/archivedMessages';
import { sessionPaths } from '../model/sessionPaths';

/** The tool call an offloaded file came from, as the session state recorded it. */
export interface OffloadOrigin {
  readonly callId: string;
  readonly toolName: string;
}

export interface SessionContent {
  /** Folder of the offloaded files. */
  readonly offloadedFolder: string;
  /** Names of the files in it. */
  readonly offloadedNames: readonly string[];
  /** Entries of the folder that are not plain files (links, folders): never read, only noted. */
  readonly skippedEntries: readonly StoreEntry[];
  /** Why the offloaded folder could not be listed (a link out of the store, say), when it could not. */
  readonly offloadedProblem?: string;
  /** Origin of each offloaded file by name, when the state file could be read. */
  readonly origins: ReadonlyMap<string, OffloadOrigin>;
  readonly archivePath: string;
  /** The archived messages, read when the index takes them in. */
  readonly messages: ArchivedRun;
  /** 1-based archive lines that could not be read back. */
  readonly unreadableLines: readonly number[];
}

/** Reads the session's listing, state and archive. A missing or unreadable state only loses the origins. */
export async function readSessionContent(store: Store, sessionId: string): Promise<SessionContent> {
  const paths = sessionPaths(sessionId);
  let offloadedProblem: string | undefined;
  const [entries, state, archived] = await Promise.all([
    store.entries(paths.offloaded).catch((e: unknown) => {
      offloadedProblem = e instanceof Error ? e.message : String(e);
      return [];
    }),
    peekSessionState(store, sessionId, systemClock),
    new Archive(store, paths.archive).read(),
  ]);
  const origins = new Map<string, OffloadOrigin>();
  for (const record of state?.offloads ?? []) {
    origins.set(record.file.split('/').pop() ?? record.file, { callId: record.callId, toolName: record.toolName });
  }
  return {
    offloadedFolder: paths.offloaded,
    offloadedNames: entries.filter((e) => e.kind === 'file').map((e) => e.name),
    skippedEntries: entries.filter((e) => e.kind !== 'file'),
    ...(offloadedProblem === undefined ? {} : { offloadedProblem }),
    origins,
    archivePath: paths.archive,
    messages: archivedRunOf(archived.messages),
    unreadableLines: archived.unreadableLines,
  };
}
