import type { Store, StoreEntry, StoreEntryKind } from '../ports';
import { tornTailPath } from './tornTail';
import { storePathSegments } from './storePath';

/** A Store held in memory, for tests and for sessions that must not touch the disk. */
export class MemoryStore implements Store {
  private readonly files = new Map<string, string>();
  /** Every folder that holds a file, built when first asked and kept up to date by writes. */
  private folders: Set<string> | undefined;
  private repairs = 0;
  /** Each file's bytes, made on the first ranged read after a change: reads at byte places come in runs. */
  private readonly bytes = new Map<string, Buffer>();

  async write(path: string, content: string): Promise<void> {
    this.set(this.key(path), content);
  }

  async append(path: string, lines: readonly string[]): Promise<void> {
    const key = this.key(path);
    this.set(key, (this.files.get(key) ?? '') + lines.map((l) => `${l}\n`).join(''));
  }

  async repairTail(path: string): Promise<string | undefined> {
    const key = this.key(path);
    const text = this.files.get(key);
    if (text === undefined || text === '' || text.endsWith('\n')) return undefined;
    const cut = text.lastIndexOf('\n') + 1;
    const aside = tornTailPath(key, Date.now(), ++this.repairs);
    this.set(this.key(aside), text.slice(cut));
    this.set(key, text.slice(0, cut));
    return aside;
  }

  async read(path: string): Promise<string | undefined> {
    return this.files.get(this.key(path));
  }

  async readRange(path: string, start: number, length: number): Promise<string | undefined> {
    const key = this.key(path);
    const text = this.files.get(key);
    if (text === undefined) return undefined;
    let bytes = this.bytes.get(key);
    if (!bytes) {
      bytes = Buffer.from(text, 'utf8');
      this.bytes.set(key, bytes);
    }
    return bytes.subarray(start, start + length).toString('utf8');
  }

  async list(folder: string): Promise<string[]> {
    return (await this.entries(folder)).map((e) => e.name);
  }

  async entries(folder: string): Promise<StoreEntry[]> {
    const prefix = `${this.key(folder)}/`;
    const kinds = new Map<string, StoreEntryKind>();
    for (const key of this.files.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length).split('/');
      kinds.set(rest[0], rest.length > 1 ? 'folder' : 'file');
    }
    return [...kinds].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async kindOf(path: string): Promise<StoreEntryKind | undefined> {
    const key = this.key(path);
    if (this.files.has(key)) return 'file';
    return this.folderSet().has(key) ? 'folder' : undefined;
  }

  async rename(from: string, to: string): Promise<void> {
    const content = this.files.get(this.key(from));
    if (content === undefined) throw Object.assign(new Error(`ENOENT: no such file, rename '${from}'`), { code: 'ENOENT' });
    this.files.delete(this.key(from));
    this.bytes.delete(this.key(from));
    this.folders = undefined;
    this.set(this.key(to), content);
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    if ((await this.kindOf(path)) !== undefined) return false;
    await this.write(path, content);
    return true;
  }

  async remove(path: string): Promise<void> {
    const key = this.key(path);
    for (const k of [...this.files.keys()]) {
      if (k !== key && !k.startsWith(`${key}/`)) continue;
      this.files.delete(k);
      this.bytes.delete(k);
    }
    this.folders = undefined;
  }

  locate(path: string): string {
    return `memory:/${this.key(path)}`;
  }

  private set(key: string, content: string): void {
    this.files.set(key, content);
    this.bytes.delete(key);
    if (this.folders) addFolders(this.folders, key);
  }

  private folderSet(): Set<string> {
    if (!this.folders) {
      this.folders = new Set();
      for (const key of this.files.keys()) addFolders(this.folders, key);
    }
    return this.folders;
  }

  private key(path: string): string {
    return storePathSegments(path).join('/');
  }
}

/** Adds the folders a file's key lies in: `a/b/c` adds `a` and `a/b`. */
function addFolders(folders: Set<string>, key: string): void {
  for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) folders.add(key.slice(0, slash));
}
