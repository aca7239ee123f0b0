/**
 * What a checkpoint reads of a session's originals: its archived messages and a search over them
 * and the offloaded files. The session's archive and search (`session/sessionArchive`,
 * `session/sessionSearch`) are what a live session gives; the checkpoint needs only these calls.
 */
import type { ArchivedMessages } from './archivedMessages';
import type { RecoveryHit } from './recoveryTypes';
import type { SessionState } from './sessionState';

/** Reads every archived message of the session, in order. */
export interface ArchiveReader {
  read(): Promise<ArchivedMessages>;
}

/** A search among the session's originals, best hits first. */
export type OriginalsQuery = (query: string, top: number) => Promise<RecoveryHit[]>;

/** Brings a search over the session's originals up to date with what it holds, then answers it. */
export interface OriginalsSearch {
  originals(archived: ArchivedMessages, state: SessionState): Promise<OriginalsQuery>;
}
