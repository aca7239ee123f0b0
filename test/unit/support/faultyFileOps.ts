/**
 * Node's file operations with faults injected where a test says: a full disk half way through a
 * write, an I/O error on sync, a read-only folder on open. Counts what it injected.
 */
import * as fs from 'node:fs/promises';
import type { FileHandleOps, FileOps } from '../../../src/engine/storage/fileOps';

/** A file operation that can be made to fail. */
export type FaultPoint = 'open' | 'write' | 'sync' | 'truncate' | 'rename' | 'link' | 'mkdir' | 'read';

/** One call about to happen. */
export interface FaultCall {
  readonly point: FaultPoint;
  readonly path: string;
  /** Running number of this kind of call, from 1. */
  readonly number: number;
  /** Bytes the call would write (writes only). */
  readonly bytes?: number;
}

/** What to do instead of the call. */
export interface Fault {
  /** The system error code to fail with: ENOSPC, EIO, EACCES, EROFS… */
  readonly code: string;
  /** For writes: bytes really written before the failure (a torn write). @default 0 */
  readonly writtenFirst?: number;
}

/** Decides, call by call, whether to fail. */
export type FaultRule = (call: FaultCall) => Fault | undefined;

export function systemError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: injected failure, '${path}'`), { code });
}

/** FileOps over the real file system that fail when the rule says so. */
export class FaultyFileOps implements FileOps {
  /** Faults injected so far. */
  injected = 0;
  private readonly counts = new Map<FaultPoint, number>();

  constructor(public rule: FaultRule) {}

  mkdir(path: string, options: { recursive: boolean }): Promise<unknown> {
    this.check('mkdir', path);
    return fs.mkdir(path, options);
  }

  async open(path: string, flags: string | number): Promise<FileHandleOps> {
    this.check('open', path);
    const handle = await fs.open(path, flags);
    return {
      write: async (buffer, offset, length, position) => {
        const fault = this.decide({ point: 'write', path, bytes: length });
        if (fault) {
          const first = Math.min(length, fault.writtenFirst ?? 0);
          if (first > 0) await handle.write(buffer, offset, first, position);
          throw systemError(fault.code, path);
        }
        return handle.write(buffer, offset, length, position);
      },
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      stat: () => handle.stat(),
      truncate: async (length) => {
        this.check('truncate', path);
        return handle.truncate(length);
      },
      sync: async () => {
        this.check('sync', path);
        return handle.sync();
      },
      close: () => handle.close(),
    };
  }

  readFile(path: string, options: { encoding: 'utf8' }): Promise<string> {
    this.check('read', path);
    return fs.readFile(path, options);
  }

  rename(from: string, to: string): Promise<void> {
    this.check('rename', to);
    return fs.rename(from, to);
  }

  link(existing: string, created: string): Promise<void> {
    this.check('link', created);
    return fs.link(existing, created);
  }

  readdir(path: string, options: { withFileTypes: true }) {
    return fs.readdir(path, options);
  }

  lstat(path: string) {
    return fs.lstat(path);
  }

  realpath(path: string): Promise<string> {
    return fs.realpath(path);
  }

  rm(path: string, options: { recursive: true; force: true }): Promise<void> {
    return fs.rm(path, options);
  }

  private check(point: FaultPoint, path: string): void {
    const fault = this.decide({ point, path });
    if (fault) throw systemError(fault.code, path);
  }

  private decide(call: Omit<FaultCall, 'number'>): Fault | undefined {
    const number = (this.counts.get(call.point) ?? 0) + 1;
    this.counts.set(call.point, number);
    const fault = this.rule({ ...call, number });
    if (fault) this.injected++;
    return fault;
  }
}
