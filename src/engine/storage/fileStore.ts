import { constants as fsConstants } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { Store, StoreEntry, StoreEntryKind } from '../ports';
import { lineStartBefore, NEWLINE, readBytes, writeWhole, type EntryType, type FileHandleOps, type FileOps } from './fileOps';
import { errorCode, LinkOutsideStoreError, SharedFileError, StorageError } from './storageError';
import { storePathSegments } from './storePath';
import { tornTailPath } from './tornTail';

export interface FileStoreOptions {
  /**
   * Sync files and folders to the disk after each write, so a power cut loses nothing written.
   * Off only where the writes can be made again from their source (a replay of a transcript).
   * @default true
   */
  readonly sync?: boolean;
}

/**
 * Appending refuses a link at the file itself where the system can say so when opening (not on
 * Windows, which checks first instead): one call fewer for every message and request.
 */
const APPEND_NO_FOLLOW =
  fsConstants.O_NOFOLLOW === undefined
    ? undefined
    : fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_APPEND | fsConstants.O_NOFOLLOW;

/**
 * A Store on the local file system. Writes go to a temporary file that is synced and renamed over
 * the target, and the folder is synced after, so a crash leaves either the old or the new content.
 * Appends go out in one write and are synced; a failed append is cut back off, so a full disk
 * never leaves half a line (this assumes one writer per file: see WriterLock). No link is
 * followed out of the root.
 */
export class FileStore implements Store {
  private tempCounter = 0;
  private repairs = 0;
  private realRoot: string | undefined;

  private readonly sync: boolean;

  constructor(
    private readonly root: string,
    private readonly fs: FileOps = nodeFs,
    options: FileStoreOptions = {},
  ) {
    this.sync = options.sync ?? true;
  }

  async write(path: string, content: string): Promise<void> {
    const target = this.resolve(path);
    const temp = this.tempPath(target);
    try {
      await this.prepareFolder(target);
      await this.writeNewFile(temp, Buffer.from(content, 'utf8'));
      await this.fs.rename(temp, target);
      await this.syncFolder(nodePath.dirname(target));
    } catch (e) {
      await this.fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
      throw new StorageError(target, 'write', e);
    }
  }

  async append(path: string, lines: readonly string[]): Promise<void> {
    const target = this.resolve(path);
    const data = Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8');
    let file: FileHandleOps | undefined;
    let sizeBefore: number | undefined;
    try {
      await this.prepareFolder(target);
      if (APPEND_NO_FOLLOW === undefined) await this.refuseLink(target);
      file = await this.fs.open(target, APPEND_NO_FOLLOW ?? 'a').catch(async (e: unknown) => {
        if (errorCode(e) === 'ELOOP') await this.refuseLink(target);
        throw e;
      });
      const before = await file.stat();
      if (before.nlink > 1) throw new SharedFileError(target, { kind: 'hard', names: before.nlink });
      sizeBefore = before.size;
      await writeWhole(file, data);
      if (this.sync) await file.sync();
    } catch (e) {
      // Cut back what this append wrote, so a full disk leaves the file as it was.
      if (file && sizeBefore !== undefined) await file.truncate(sizeBefore).catch(() => undefined);
      throw new StorageError(target, 'append to', e);
    } finally {
      await file?.close().catch(() => undefined);
    }
  }

  async repairTail(path: string): Promise<string | undefined> {
    const target = this.resolve(path);
    let file: FileHandleOps | undefined;
    try {
      await this.refuseLink(target);
      file = await this.fs.open(target, 'r+');
      const { nlink } = await file.stat();
      if (nlink > 1) throw new SharedFileError(target, { kind: 'hard', names: nlink });
      return (await this.cutTornTail(file, path)).aside;
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return undefined;
      throw new StorageError(target, 'repair', e);
    } finally {
      await file?.close().catch(() => undefined);
    }
  }

  async read(path: string): Promise<string | undefined> {
    const target = this.resolve(path);
    try {
      await this.refuseLinkOutside(target);
      await this.refuseSharedFile(target);
      return await this.fs.readFile(target, { encoding: 'utf8' });
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return undefined;
      throw new StorageError(target, 'read', e);
    }
  }

  async readRange(path: string, start: number, length: number): Promise<string | undefined> {
    const target = this.resolve(path);
    let file: FileHandleOps | undefined;
    try {
      await this.refuseLinkOutside(target);
      await this.refuseSharedFile(target);
      file = await this.fs.open(target, 'r');
      return (await readBytes(file, start, length)).toString('utf8');
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return undefined;
      throw new StorageError(target, 'read', e);
    } finally {
      await file?.close().catch(() => undefined);
    }
  }

  async list(folder: string): Promise<string[]> {
    return (await this.entries(folder)).map((e) => e.name);
  }

  async entries(folder: string): Promise<StoreEntry[]> {
    const target = this.resolve(folder);
    try {
      await this.refuseLinkOutside(target);
      const found = await this.fs.readdir(target, { withFileTypes: true });
      return found
        .filter((d) => !d.name.includes('.tmp-'))
        .map((d) => ({ name: d.name, kind: kindOf(d) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return [];
      throw new StorageError(target, 'list', e);
    }
  }

  async kindOf(path: string): Promise<StoreEntryKind | undefined> {
    const target = this.resolve(path);
    try {
      return kindOf(await this.fs.lstat(target));
    } catch (e) {
      if (errorCode(e) === 'ENOENT' || errorCode(e) === 'ENOTDIR') return undefined;
      throw new StorageError(target, 'inspect', e);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    try {
      await this.prepareFolder(target);
      await this.fs.rename(source, target);
      await this.syncFolder(nodePath.dirname(target));
      if (nodePath.dirname(source) !== nodePath.dirname(target)) await this.syncFolder(nodePath.dirname(source));
    } catch (e) {
      throw new StorageError(source, 'move', e);
    }
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    const target = this.resolve(path);
    const temp = this.tempPath(target);
    try {
      await this.prepareFolder(target);
      await this.writeNewFile(temp, Buffer.from(content, 'utf8'));
      // A hard link appears whole or not at all, and fails when anything (a link too) is there.
      await this.fs.link(temp, target);
      await this.syncFolder(nodePath.dirname(target));
      return true;
    } catch (e) {
      if (errorCode(e) === 'EEXIST') return false;
      throw new StorageError(target, 'create', e);
    } finally {
      await this.fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  async remove(path: string): Promise<void> {
    const target = this.resolve(path);
    try {
      await this.fs.rm(target, { recursive: true, force: true });
    } catch (e) {
      throw new StorageError(target, 'remove', e);
    }
  }

  locate(path: string): string {
    return this.resolve(path);
  }

  /**
   * When the file does not end with a newline, moves its last partial line to a side file and
   * cuts it off. Returns the file's size after, and the side file when there was a torn tail.
   */
  private async cutTornTail(file: FileHandleOps, path: string): Promise<{ size: number; aside?: string }> {
    const size = (await file.stat()).size;
    if (size === 0 || (await readBytes(file, size - 1, 1))[0] === NEWLINE) return { size };
    const cut = await lineStartBefore(file, size);
    const aside = tornTailPath(path, Date.now(), ++this.repairs);
    const asideTarget = this.resolve(aside);
    await this.writeNewFile(asideTarget, await readBytes(file, cut, size - cut));
    await this.syncFolder(nodePath.dirname(asideTarget));
    await file.truncate(cut);
    if (this.sync) await file.sync();
    return { size: cut, aside };
  }

  /**
   * Creates the file's folder and checks that it really lies inside the root. The folder is almost
   * always there already (every message and request writes to the same few): finding its real path
   * says so, and only a missing one is made, so a write does not pay for a folder it has.
   */
  private async prepareFolder(target: string): Promise<void> {
    const folder = nodePath.dirname(target);
    const real = await this.fs.realpath(folder).catch(async (e: unknown) => {
      if (errorCode(e) !== 'ENOENT') throw e;
      await this.makeFolder(folder);
      return this.fs.realpath(folder);
    });
    if (!isInside(real, await this.rootReal())) throw new LinkOutsideStoreError(folder, real);
  }

  /**
   * Makes the folder and those above it. Node's recursive mkdir says "no such file" where the
   * disk is read-only or the folder above may not be written; making the first missing folder
   * alone then gives the true reason.
   */
  private async makeFolder(folder: string): Promise<void> {
    try {
      await this.fs.mkdir(folder, { recursive: true });
    } catch (e) {
      if (errorCode(e) !== 'ENOENT') throw e;
      let missing = folder;
      while (nodePath.dirname(missing) !== missing && !(await this.exists(nodePath.dirname(missing)))) missing = nodePath.dirname(missing);
      throw await this.fs.mkdir(missing, { recursive: false }).then(
        () => e,
        (why: unknown) => why,
      );
    }
  }

  private exists(path: string): Promise<boolean> {
    return this.fs.lstat(path).then(
      () => true,
      () => false,
    );
  }

  /** Appending through a link would write wherever it points. */
  private async refuseLink(target: string): Promise<void> {
    const kind = await this.fs.lstat(target).then(kindOf, (e: unknown) => {
      if (errorCode(e) === 'ENOENT') return undefined;
      throw e;
    });
    if (kind === 'link') throw new LinkOutsideStoreError(target, await this.fs.realpath(target).catch(() => 'a missing target'));
  }

  /**
   * A file is read only under its own name: not through a link at the file itself (a link into
   * another session would serve that session's content under this one), and not when it has a
   * second name elsewhere (a hard link, which no path check can see).
   */
  private async refuseSharedFile(target: string): Promise<void> {
    const entry = await this.fs.lstat(target);
    if (entry.isSymbolicLink()) throw new SharedFileError(target, { kind: 'symbolic', target: await this.fs.realpath(target) });
    if (entry.isFile() && entry.nlink > 1) throw new SharedFileError(target, { kind: 'hard', names: entry.nlink });
  }

  /** Reads follow a link only while it stays inside the root. */
  private async refuseLinkOutside(target: string): Promise<void> {
    const real = await this.fs.realpath(target);
    if (!isInside(real, await this.rootReal())) throw new LinkOutsideStoreError(target, real);
  }

  private async rootReal(): Promise<string> {
    if (this.realRoot === undefined) {
      const resolved = await this.fs.realpath(this.root).catch(() => undefined);
      if (resolved === undefined) return nodePath.resolve(this.root);
      this.realRoot = resolved;
    }
    return this.realRoot;
  }

  /** Writes a file that must not exist yet and syncs it. */
  private async writeNewFile(path: string, data: Uint8Array): Promise<void> {
    const file = await this.fs.open(path, 'wx');
    try {
      await writeWhole(file, data);
      if (this.sync) await file.sync();
    } finally {
      await file.close();
    }
  }

  /** Makes a rename or a new file in the folder durable. Some systems cannot sync a folder; that is no failure. */
  private async syncFolder(folder: string): Promise<void> {
    if (!this.sync) return;
    let handle: FileHandleOps | undefined;
    try {
      handle = await this.fs.open(folder, 'r');
      await handle.sync();
    } catch (e) {
      if (!['EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'ENOTSUP', 'EACCES'].includes(errorCode(e) ?? '')) throw e;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  private tempPath(target: string): string {
    return `${target}.tmp-${process.pid}-${++this.tempCounter}`;
  }

  private resolve(path: string): string {
    return nodePath.join(this.root, ...storePathSegments(path));
  }
}

function kindOf(entry: EntryType): StoreEntryKind {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'folder';
  return entry.isFile() ? 'file' : 'other';
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(nodePath.sep) ? root : `${root}${nodePath.sep}`);
}
