/**
 * The archive as a session uses it. Messages that could not be written (a full disk) wait and go
 * first on the next append, so the file never misses one; until then the archive is incomplete and
 * nothing may leave the context. Every archived message is also kept in memory, by id and in
 * order, so checkpoints and the drift check read the originals without reading the file again;
 * a session started fresh from another one reads through to its parent's archive.
 */
import type { ArchivedMessages } from '../model/archivedMessages';
import type { ArchiveReader } from '../model/sessionOriginals';
import { Archive, type ArchiveOptions } from '../archive';
import type { Store } from '../ports';
import type { Message } from '../types';
import { sessionPaths, type SessionPaths } from '../model/sessionPaths';

export class SessionArchive implements ArchiveReader {
  private readonly archive: Archive;
  /** Messages the archive could not take yet; retried before anything else is written. */
  private unarchived: Message[] = [];
  private loaded: Promise<MessageList> | undefined;
  /** Appends and the first read run one after another, so the list in memory is the file's order. */
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
      try {
        await this.archive.append(pending);
      } catch (e) {
        this.unarchived = pending;
        throw e;
      }
      this.unarchived = [];
      if (this.loaded) (await this.loaded).push(pending);
      return pending.length;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Every archived message, the parent session's first when this one was started fresh from it. */
  async read(): Promise<ArchivedMessages> {
    if (!this.loaded) {
      this.loaded = this.queue.then(() => this.load());
      this.queue = this.loaded.catch(() => undefined);
    }
    try {
      return (await this.loaded).view();
    } catch (e) {
      this.loaded = undefined;
      throw e;
    }
  }

  locate(): string {
    return this.archive.locate();
  }

  private async load(): Promise<MessageList> {
    const list = new MessageList();
    const parent = this.parentSessionId;
    if (parent) list.push((await new Archive(this.store, sessionPaths(parent).archive).read()).messages);
    list.push((await this.archive.read()).messages);
    return list;
  }
}

/** Messages in archive order with an index by id. */
class MessageList {
  private readonly messages: Message[] = [];
  private readonly positions = new Map<string, number>();

  push(messages: readonly Message[]): void {
    for (const m of messages) {
      this.messages.push(m);
      if (!this.positions.has(m.id)) this.positions.set(m.id, this.messages.length);
    }
  }

  view(): ArchivedMessages {
    const messages = this.messages.slice();
    const positions = this.positions;
    const all = this.messages;
    return {
      messages,
      byId: (id) => {
        const at = positions.get(id);
        return at === undefined ? undefined : all[at - 1];
      },
      position: (id) => positions.get(id) ?? 0,
    };
  }
}
