/**
 * A store over another one that keeps every change in memory: reads see the changes, the store
 * below sees nothing until `flush`. A dry run (a compression previewed before it applies) works on
 * one, so it writes no file; applying the preview flushes what it wrote, in order.
 */
import type { Store, StoreEntry, StoreEntryKind } from '../ports';
import { storePathSegments } from './storePath';

type Change =
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'createExclusive'; readonly path: string; readonly content: string }
  | { readonly kind: 'append'; readonly path: string; readonly lines: readonly string[] }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }
  | { readonly kind: 'remove'; readonly path: string };

/** A file created here turned out to exist below when the changes were made there. */
export class OverlayConflictError extends Error {
  constructor(readonly path: string) {
    super(`${path} was created meanwhile, so the changes were not all made`);
    this.name = 'OverlayConflictError';
  }
}

export class OverlayStore implements Store {
  private readonly changes: Change[] = [];
  /** Each changed path's content as the overlay sees it; undefined for a removed one. */
  private readonly contents = new Map<string, string | undefined>();

  constructor(private readonly below: Store) {}

  /** True when nothing was written, appended, moved or removed. */
  get empty(): boolean {
    return this.changes.length === 0;
  }

  async write(path: string, content: string): Promise<void> {
    this.changes.push({ kind: 'write', path, content });
    this.contents.set(keyOf(path), content);
  }

  async append(path: string, lines: readonly string[]): Promise<void> {
    const before = await this.read(path);
    this.changes.push({ kind: 'append', path, lines });
    this.contents.set(keyOf(path), (before ?? '') + lines.map((l) => `${l}\n`).join(''));
  }

  /** A dry run repairs nothing: the real writer repairs a torn line before its own first append. */
  async repairTail(): Promise<string | undefined> {
    return undefined;
  }

  async read(path: string): Promise<string | undefined> {
    const key = keyOf(path);
    if (this.contents.has(key)) return this.contents.get(key);
    if (this.removedAbove(key)) return undefined;
    return this.below.read(path);
  }

  async readRange(path: string, start: number, length: number): Promise<string | undefined> {
    const key = keyOf(path);
    if (this.contents.has(key) || this.removedAbove(key)) {
      const text = await this.read(path);
      return text === undefined
        ? undefined
        : Buffer.from(text, 'utf8')
            .subarray(start, start + length)
            .toString('utf8');
    }
    return this.below.readRange(path, start, length);
  }

  async list(folder: string): Promise<string[]> {
    return (await this.entries(folder)).map((e) => e.name);
  }

  async entries(folder: string): Promise<StoreEntry[]> {
    const prefix = `${keyOf(folder)}/`;
    const kinds = new Map<string, StoreEntryKind>();
    for (const e of await this.below.entries(folder)) if (!this.removedAbove(`${prefix}${e.name}`)) kinds.set(e.name, e.kind);
    for (const [key, content] of this.contents) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length).split('/');
      if (content === undefined && rest.length === 1) kinds.delete(rest[0]);
      else if (content !== undefined) kinds.set(rest[0], rest.length > 1 ? 'folder' : 'file');
    }
    return [...kinds].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async kindOf(path: string): Promise<StoreEntryKind | undefined> {
    const key = keyOf(path);
    if (this.contents.has(key)) return this.contents.get(key) === undefined ? undefined : 'file';
    for (const [k, content] of this.contents) if (content !== undefined && k.startsWith(`${key}/`)) return 'folder';
    if (this.removedAbove(key)) return undefined;
    return this.below.kindOf(path);
  }

  async rename(from: string, to: string): Promise<void> {
    const content = await this.read(from);
    if (content === undefined) throw Object.assign(new Error(`ENOENT: no such file, rename '${from}'`), { code: 'ENOENT' });
    this.changes.push({ kind: 'rename', from, to });
    this.contents.set(keyOf(from), undefined);
    this.contents.set(keyOf(to), content);
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    if ((await this.kindOf(path)) !== undefined) return false;
    this.changes.push({ kind: 'createExclusive', path, content });
    this.contents.set(keyOf(path), content);
    return true;
  }

  async remove(path: string): Promise<void> {
    const key = keyOf(path);
    this.changes.push({ kind: 'remove', path });
    for (const k of [...this.contents.keys()]) if (k.startsWith(`${key}/`)) this.contents.delete(k);
    this.contents.set(key, undefined);
  }

  locate(path: string): string {
    return this.below.locate(path);
  }

  /** Makes every change on the store below, in the order it was made here. */
  async flush(): Promise<void> {
    for (const change of this.changes.splice(0)) {
      switch (change.kind) {
        case 'write':
          await this.below.write(change.path, change.content);
          break;
        case 'createExclusive':
          if (!(await this.below.createExclusive(change.path, change.content))) throw new OverlayConflictError(change.path);
          break;
        case 'append':
          await this.below.repairTail(change.path);
          await this.below.append(change.path, change.lines);
          break;
        case 'rename':
          await this.below.rename(change.from, change.to);
          break;
        case 'remove':
          await this.below.remove(change.path);
      }
    }
    this.contents.clear();
  }

  /** True when this path or a folder above it was removed here (and not written again since). */
  private removedAbove(key: string): boolean {
    const segments = key.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      if (this.contents.has(prefix) && this.contents.get(prefix) === undefined) return true;
    }
    return false;
  }
}

function keyOf(path: string): string {
  return storePathSegments(path).join('/');
}
