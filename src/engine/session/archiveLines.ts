/**
 * Where each archived message stands in the archive files: its id, the file (the parent session's archive or the
 * session's own) and its line's place in bytes. Messages are read back from there when asked for, so a long session's
 * archive is not held in memory; the messages written or read last are kept in a small cache, since the readers ask
 * for the newest ones most (the search takes in what was archived since it last ran, a checkpoint reads its span).
 */
import type { Archive } from '../archive';
import type { Message } from '../types';

/** Messages kept after they were written or read: about what arrives between two checkpoints. */
export const CACHED_MESSAGES = 256;
/** Line bytes kept in the cache at most: a few large results must not hold much memory. */
export const CACHED_BYTES = 4 * 1024 * 1024;
/** Bytes read from a file at once when consecutive lines are read together. */
const READ_BYTES = 4 * 1024 * 1024;

/** A line read back did not hold the message the index says stands there. */
export class ArchiveLineMismatchError extends Error {
  constructor(readonly position: number) {
    super(`the archive's line for message ${position} does not hold it any more`);
    this.name = 'ArchiveLineMismatchError';
  }
}

export class ArchiveLines {
  private readonly ids: string[] = [];
  private readonly files: number[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  /** 1-based position of the first message with each id. */
  private readonly positions = new Map<string, number>();
  /** Where the next line of each file starts. */
  private readonly ends: number[];
  private readonly cache = new Map<number, { readonly message: Message; readonly bytes: number }>();
  private cachedBytes = 0;

  /** `archives` in the order their messages come: the parent session's first. */
  constructor(private readonly archives: readonly Archive[]) {
    this.ends = archives.map(() => 0);
  }

  get count(): number {
    return this.ids.length;
  }

  /** Records lines of file `file` (an index into the archives), each at its byte offset and length. */
  addRead(file: number, ids: readonly string[], offsets: readonly number[], lengths: readonly number[], end: number): void {
    ids.forEach((id, i) => this.add(id, file, offsets[i], lengths[i]));
    this.ends[file] = end;
  }

  /** Records messages just appended to file `file`, one line each of these lengths, and keeps them in the cache. */
  addAppended(file: number, messages: readonly Message[], lengths: readonly number[]): void {
    messages.forEach((m, i) => {
      this.add(m.id, file, this.ends[file], lengths[i]);
      this.ends[file] += lengths[i] + 1;
      this.remember(this.ids.length - 1, m, lengths[i]);
    });
  }

  idAt(index: number): string | undefined {
    return this.ids[index];
  }

  /** 1-based position of the first message with this id; 0 when there is none. */
  position(id: string): number {
    return this.positions.get(id) ?? 0;
  }

  /** The messages at these 0-based indexes, in this order; consecutive lines missing from the cache are read together. */
  async read(indexes: readonly number[]): Promise<Message[]> {
    const found = new Map<number, Message>();
    const missing: number[] = [];
    for (const i of indexes) {
      const cached = this.cache.get(i);
      if (cached) found.set(i, cached.message);
      else missing.push(i);
    }
    const sorted = [...new Set(missing)].sort((a, b) => a - b);
    for (let start = 0; start < sorted.length;) {
      const end = this.runEnd(sorted, start);
      await this.readRun(sorted.slice(start, end), found);
      start = end;
    }
    return indexes.map((i) => found.get(i) as Message);
  }

  private add(id: string, file: number, offset: number, length: number): void {
    this.ids.push(id);
    this.files.push(file);
    this.offsets.push(offset);
    this.lengths.push(length);
    if (!this.positions.has(id)) this.positions.set(id, this.ids.length);
  }

  /** Exclusive end of the run of `sorted` from `start` whose lines follow each other in one file, within the read size. */
  private runEnd(sorted: readonly number[], start: number): number {
    let end = start + 1;
    let bytes = this.lengths[sorted[start]] + 1;
    for (; end < sorted.length; end++) {
      const previous = sorted[end - 1];
      const next = sorted[end];
      const follows =
        this.files[next] === this.files[previous] && this.offsets[next] === this.offsets[previous] + this.lengths[previous] + 1;
      if (!follows || bytes + this.lengths[next] + 1 > READ_BYTES) break;
      bytes += this.lengths[next] + 1;
    }
    return end;
  }

  private async readRun(run: readonly number[], found: Map<number, Message>): Promise<void> {
    const first = run[0];
    const last = run[run.length - 1];
    const archive = this.archives[this.files[first]];
    const messages =
      run.length === 1
        ? [await archive.readLine(this.offsets[first], this.lengths[first])]
        : await archive.readLines(this.offsets[first], this.offsets[last] + this.lengths[last] + 1 - this.offsets[first]);
    run.forEach((i, k) => {
      const message = messages[k];
      if (message?.id !== this.ids[i]) throw new ArchiveLineMismatchError(i + 1);
      found.set(i, message);
      this.remember(i, message, this.lengths[i]);
    });
  }

  private remember(index: number, message: Message, bytes: number): void {
    if (bytes > CACHED_BYTES / 4) return;
    const known = this.cache.get(index);
    if (known) {
      this.cache.delete(index);
      this.cachedBytes -= known.bytes;
    }
    this.cache.set(index, { message, bytes });
    this.cachedBytes += bytes;
    for (const [oldest, entry] of this.cache) {
      if (this.cache.size <= CACHED_MESSAGES && this.cachedBytes <= CACHED_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entry.bytes;
    }
  }
}
