/**
 * A store over another one that keeps every change in memory: reads see the changes, the store
 * below sees nothing until `flush`. A dry run (a compression previewed before it applies) works on
 * one, so it writes no file; applying the preview flushes what it wrote, in order.
 */
import type { Store } from '../ports';
import { storePathSegments } from './storePath';

type Change =
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'append'; readonly path: string; readonly lines: readonly string[] }
  | { readonly kind: 'remove'; readonly path: string };

export class OverlayStore implements Store {
  private readonly changes: Change[] = [];
  /** Each changed path's content as the overlay sees it; undefined for a removed one. */
  private readonly contents = new Map<string, string | undefined>();

  constructor(private readonly below: Store) {}

  /** True when nothing was written, appended or removed. */
  get empty(): boolean {
    return this.changes.length === 0;
  }

  async write(path: string, content: string): Promise<void> {
    const key = keyOf(path);
    this.changes.push({ kind: 'write', path, content });
    this.contents.set(key, content);
  }

  async append(path: string, lines: readonly string[]): Promise<void> {
    const key = keyOf(path);
    const before = await this.read(path);
    this.changes.push({ kind: 'append', path, lines });
    this.contents.set(key, (before ?? '') + lines.map((l) => `${l}\n`).join(''));
  }

  async read(path: string): Promise<string | undefined> {
    const key = keyOf(path);
    if (this.contents.has(key)) return this.contents.get(key);
    if (this.removedAbove(key)) return undefined;
    return this.below.read(path);
  }

  async list(folder: string): Promise<string[]> {
    const prefix = `${keyOf(folder)}/`;
    const names = new Set((await this.below.list(folder)).filter((n) => !this.removedAbove(`${prefix}${n}`)));
    for (const [key, content] of this.contents) {
      if (!key.startsWith(prefix)) continue;
      const name = key.slice(prefix.length).split('/')[0];
      if (content === undefined && key === `${prefix}${name}`) names.delete(name);
      else if (content !== undefined) names.add(name);
    }
    return [...names].sort();
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
      if (change.kind === 'write') await this.below.write(change.path, change.content);
      else if (change.kind === 'append') await this.below.append(change.path, change.lines);
      else await this.below.remove(change.path);
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
