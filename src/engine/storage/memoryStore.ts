import type { Store } from '../ports';
import { storePathSegments } from './storePath';

/** A Store held in memory, for tests and for sessions that must not touch the disk. */
export class MemoryStore implements Store {
  private readonly files = new Map<string, string>();

  async write(path: string, content: string): Promise<void> {
    this.files.set(this.key(path), content);
  }

  async append(path: string, lines: readonly string[]): Promise<void> {
    const key = this.key(path);
    this.files.set(key, (this.files.get(key) ?? '') + lines.map((l) => `${l}\n`).join(''));
  }

  async read(path: string): Promise<string | undefined> {
    return this.files.get(this.key(path));
  }

  async list(folder: string): Promise<string[]> {
    const prefix = `${this.key(folder)}/`;
    const names = new Set<string>();
    for (const key of this.files.keys()) {
      if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split('/')[0]);
    }
    return [...names].sort();
  }

  async remove(path: string): Promise<void> {
    const key = this.key(path);
    for (const k of [...this.files.keys()]) {
      if (k === key || k.startsWith(`${key}/`)) this.files.delete(k);
    }
  }

  locate(path: string): string {
    return `memory:/${this.key(path)}`;
  }

  private key(path: string): string {
    return storePathSegments(path).join('/');
  }
}
