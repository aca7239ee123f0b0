import * as nodeFs from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { Store } from '../ports';
import { storePathSegments } from './storePath';

/** The file operations FileStore needs; injectable so tests can simulate a crash or a full disk. */
export interface FileOps {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, data: string, options: { encoding: 'utf8'; flag?: string }): Promise<void>;
  appendFile(path: string, data: string, options: { encoding: 'utf8' }): Promise<void>;
  readFile(path: string, options: { encoding: 'utf8' }): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
}

/** Thrown when the storage folder cannot be written; carries the path and the system's reason. */
export class StorageError extends Error {
  constructor(
    readonly path: string,
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`Could not ${operation} ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'StorageError';
  }
}

/**
 * A Store on the local file system. Writes go to a temporary file that is renamed over the
 * target, so a crash leaves either the old or the new content, never half of each.
 */
export class FileStore implements Store {
  private tempCounter = 0;

  constructor(
    private readonly root: string,
    private readonly fs: FileOps = nodeFs,
  ) {}

  async write(path: string, content: string): Promise<void> {
    const target = this.resolve(path);
    const temp = `${target}.tmp-${process.pid}-${++this.tempCounter}`;
    try {
      await this.fs.mkdir(nodePath.dirname(target), { recursive: true });
      await this.fs.writeFile(temp, content, { encoding: 'utf8' });
      await this.fs.rename(temp, target);
    } catch (e) {
      await this.fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
      throw new StorageError(target, 'write', e);
    }
  }

  async append(path: string, lines: readonly string[]): Promise<void> {
    const target = this.resolve(path);
    try {
      await this.fs.mkdir(nodePath.dirname(target), { recursive: true });
      await this.fs.appendFile(target, lines.map((l) => `${l}\n`).join(''), { encoding: 'utf8' });
    } catch (e) {
      throw new StorageError(target, 'append to', e);
    }
  }

  async read(path: string): Promise<string | undefined> {
    try {
      return await this.fs.readFile(this.resolve(path), { encoding: 'utf8' });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw new StorageError(this.resolve(path), 'read', e);
    }
  }

  async list(folder: string): Promise<string[]> {
    try {
      const names = await this.fs.readdir(this.resolve(folder));
      return names.filter((n) => !n.includes('.tmp-')).sort();
    } catch (e) {
      if (isNotFound(e)) return [];
      throw new StorageError(this.resolve(folder), 'list', e);
    }
  }

  async remove(path: string): Promise<void> {
    await this.fs.rm(this.resolve(path), { recursive: true, force: true });
  }

  locate(path: string): string {
    return this.resolve(path);
  }

  private resolve(path: string): string {
    return nodePath.join(this.root, ...storePathSegments(path));
  }
}

function isNotFound(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'ENOENT';
}
