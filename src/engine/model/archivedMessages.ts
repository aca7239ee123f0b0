/** The archived messages of a session as its readers see them (the archive that keeps them is `session/sessionArchive`). */
import type { Message } from '../types';

/** Archived messages in archive order, read when asked for: a long session's archive is not held in memory. */
export interface ArchivedRun {
  /** Messages in it. */
  readonly count: number;
  /** The id of the message at this 0-based index; undefined past the end. */
  idAt(index: number): string | undefined;
  /** The messages from 0-based index `from` up to `to` (exclusive, clamped to the end), in order. */
  read(from: number, to: number): Promise<readonly Message[]>;
}

/** Every archived message in order, with its 1-based position. */
export interface ArchivedMessages extends ArchivedRun {
  /** The message with this id (the first one archived with it); undefined when the archive does not hold it. */
  byId(id: string): Promise<Message | undefined>;
  /** The messages with these ids, in this order; undefined for an id the archive does not hold. */
  byIds(ids: readonly string[]): Promise<(Message | undefined)[]>;
  /** 1-based position in the archive (the parent's messages first); 0 when unknown. */
  position(id: string): number;
}

/** Messages read at a time when a reader goes through a whole run: a bounded slice of a long archive. */
export const ARCHIVE_BATCH = 256;

/** Messages already in memory (an archive read whole from disk), as a run. */
export function archivedRunOf(messages: readonly Message[]): ArchivedRun {
  return {
    count: messages.length,
    idAt: (index) => messages[index]?.id,
    read: (from, to) => Promise.resolve(messages.slice(from, to)),
  };
}

/**
 * Calls `each` with the run's messages from 0-based index `from` on, in order, reading a bounded batch at a time,
 * until it returns true.
 */
export async function forEachArchived(
  run: ArchivedRun,
  from: number,
  each: (message: Message, index: number) => boolean | void,
): Promise<void> {
  for (let start = from; start < run.count; start += ARCHIVE_BATCH) {
    const batch = await run.read(start, Math.min(run.count, start + ARCHIVE_BATCH));
    for (const [i, message] of batch.entries()) if (each(message, start + i) === true) return;
  }
}
