/**
 * A Store that remembers its first failure. The session goes on when a write fails (it warns and
 * keeps everything in memory), which is right in an editor; a replay's whole purpose is what it
 * writes, so the command line checks this afterwards and fails with the storage's reason.
 */
import type { Store, StoreEntry, StoreEntryKind } from '../engine/host/ports';

export class WatchedStore implements Store {
  /** The first error a write, append or move threw, if any. */
  firstFailure: unknown;

  constructor(private readonly inner: Store) {}

  write(path: string, content: string): Promise<void> {
    return this.watch(this.inner.write(path, content));
  }
  append(path: string, lines: readonly string[]): Promise<void> {
    return this.watch(this.inner.append(path, lines));
  }
  repairTail(path: string): Promise<string | undefined> {
    return this.watch(this.inner.repairTail(path));
  }
  rename(from: string, to: string): Promise<void> {
    return this.watch(this.inner.rename(from, to));
  }
  createExclusive(path: string, content: string): Promise<boolean> {
    return this.watch(this.inner.createExclusive(path, content));
  }
  read(path: string): Promise<string | undefined> {
    return this.inner.read(path);
  }
  readRange(path: string, start: number, length: number): Promise<string | undefined> {
    return this.inner.readRange(path, start, length);
  }
  list(folder: string): Promise<string[]> {
    return this.inner.list(folder);
  }
  entries(folder: string): Promise<StoreEntry[]> {
    return this.inner.entries(folder);
  }
  kindOf(path: string): Promise<StoreEntryKind | undefined> {
    return this.inner.kindOf(path);
  }
  remove(path: string): Promise<void> {
    return this.inner.remove(path);
  }
  locate(path: string): string {
    return this.inner.locate(path);
  }

  private async watch<T>(operation: Promise<T>): Promise<T> {
    try {
      return await operation;
    } catch (e) {
      this.firstFailure ??= e;
      throw e;
    }
  }
}
