/** What a stored session holds that the recovery index searches: its offloaded files and its archive. */
import { Archive, type ArchiveReadResult } from '../archive';
import { systemClock, type Store, type StoreEntry } from '../ports';
import { peekSessionState } from '../storage/sessionJournal';
import { archivedRunOf, type ArchivedRun } from '../model/archivedMessages';
import { sessionPaths } from '../model/sessionPaths';
import type { Message } from '../types';

/** The archived messages with these ids, in this order; undefined for one the archive does not hold. */
export type MessageReader = (ids: readonly string[]) => Promise<readonly (Message | undefined)[]>;

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
  /** Reads archived messages back by id, when a search ranks their passages. */
  readonly readMessages: MessageReader;
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
    readMessages: archiveLineReader(new Archive(store, paths.archive), archived),
    unreadableLines: archived.unreadableLines,
  };
}

/**
 * Reads messages back from the archive's lines at the places its last reading found them, so the messages themselves
 * need not be held; a line that no longer holds its message reads as undefined.
 */
function archiveLineReader(archive: Archive, read: ArchiveReadResult): MessageReader {
  const places = new Map<string, { readonly offset: number; readonly length: number }>();
  read.messages.forEach((m, i) => {
    if (!places.has(m.id)) places.set(m.id, { offset: read.offsets[i], length: read.lengths[i] });
  });
  return (ids) =>
    Promise.all(
      ids.map(async (id) => {
        const place = places.get(id);
        const message = place ? await archive.readLine(place.offset, place.length) : undefined;
        return message?.id === id ? message : undefined;
      }),
    );
}
