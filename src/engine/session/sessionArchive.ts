/**
 * The archive as a session uses it. Messages that could not be written (a full disk) wait and go
 * first on the next append, so the file never misses one; until then the archive is incomplete and
 * nothing may leave the context. Archived messages are read back from the file when asked for: in
 * memory stay only their ids and their lines' places (`archiveLines.ts`) and a small cache of the
 * newest, so memory does not grow with the session's history. A session started fresh from another
 * one reads through to its parent's archive.
 */
import type { ArchivedMessages } from '../model/archivedMessages';
import type { ArchiveReader } from '../model/sessionOriginals';
import { Archive, type ArchiveOptions } from '../archive';
import { ArchiveLineMismatchError, ArchiveLines } from './archiveLines';
import type { Store } from '../ports';
import type { Message } from '../types';
import { sessionPaths, type SessionPaths } from '../model/sessionPaths';

export class SessionArchive implements ArchiveReader {
  private readonly archive: Archive;
  /** Messages the archive could not take yet; retried before anything else is written. */
  private unarchived: Message[] = [];
  private loaded: Promise<ArchiveLines> | undefined;
  /** Appends and the first read run one after another, so the places in memory are the file's order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    paths: SessionPaths,
    private readonly parentSessionId: string | undefined,
    options: ArchiveOptions = {},
  ) {
    this.archive = new Archive(store, paths.archive, options);
  }

  /**
   * Messages the archive is missing although the session has them (found when a session was
   * opened after a crash): they are appended first, before the next messages.
   */
  owe(messages: readonly Message[]): void {
    this.unarchived = [...messages, ...this.unarchived];
  }

  /** True when every message that entered the session is in the archive. */
  get complete(): boolean {
    return this.unarchived.length === 0;
  }

  /**
   * Appends the messages after any that are still waiting. Resolves to the number of messages
   * written, or throws (the messages then wait for the next append).
   */
  append(messages: readonly Message[]): Promise<number> {
    const run = this.queue.then(async () => {
      const pending = [...this.unarchived, ...messages];
      let lengths: number[];
      try {
        lengths = await this.archive.append(pending);
      } catch (e) {
        this.unarchived = pending;
        throw e;
      }
      this.unarchived = [];
      if (this.loaded) (await this.loaded).addAppended(this.parentSessionId ? 1 : 0, pending, lengths);
      return pending.length;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Every archived message, the parent session's first when this one was started fresh from it, read when asked for.
   * The view counts the messages archived when it was made; look-ups by id see later ones too.
   */
  async read(): Promise<ArchivedMessages> {
    const lines = await this.lines();
    const count = lines.count;
    const at = (indexes: readonly number[]) => this.readAt(indexes);
    return {
      count,
      idAt: (index) => (index < count ? lines.idAt(index) : undefined),
      read: async (from, to) => {
        const indexes: number[] = [];
        for (let i = Math.max(0, from); i < Math.min(to, count); i++) indexes.push(i);
        return at(indexes);
      },
      byId: async (id) => {
        const position = lines.position(id);
        return position === 0 ? undefined : (await at([position - 1]))[0];
      },
      byIds: async (ids) => {
        const positions = ids.map((id) => lines.position(id));
        const read = await at(positions.filter((p) => p > 0).map((p) => p - 1));
        let k = 0;
        return positions.map((p) => (p > 0 ? read[k++] : undefined));
      },
      position: (id) => lines.position(id),
    };
  }

  locate(): string {
    return this.archive.locate();
  }

  private async lines(): Promise<ArchiveLines> {
    if (!this.loaded) {
      this.loaded = this.queue.then(() => this.load());
      this.queue = this.loaded.catch(() => undefined);
    }
    try {
      return await this.loaded;
    } catch (e) {
      this.loaded = undefined;
      throw e;
    }
  }

  /**
   * The messages at these indexes. A line that no longer holds its message (the file was changed under the session)
   * makes the places be read again from the files, once.
   */
  private async readAt(indexes: readonly number[]): Promise<Message[]> {
    try {
      return await (await this.lines()).read(indexes);
    } catch (e) {
      if (!(e instanceof ArchiveLineMismatchError)) throw e;
      this.loaded = undefined;
      return (await this.lines()).read(indexes);
    }
  }

  private async load(): Promise<ArchiveLines> {
    const parent = this.parentSessionId;
    const archives = parent ? [new Archive(this.store, sessionPaths(parent).archive), this.archive] : [this.archive];
    const lines = new ArchiveLines(archives);
    for (const [file, archive] of archives.entries()) {
      const read = await archive.read();
      lines.addRead(
        file,
        read.messages.map((m) => m.id),
        read.offsets,
        read.lengths,
        read.wholeBytes,
      );
    }
    return lines;
  }
}
