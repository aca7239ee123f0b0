/**
 * The file operations FileStore makes, as an interface tests can fail on purpose (a full disk
 * half way through a write, an I/O error on sync), and the byte-level helpers over an open file.
 */

/** The calls FileStore makes on an open file: what node's `FileHandle` has. */
export interface FileHandleOps {
  write(buffer: Uint8Array, offset: number, length: number, position?: number | null): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  /** The size, and how many names the file has (above 1: a hard link to it stands elsewhere). */
  stat(): Promise<{ size: number; nlink: number }>;
  truncate(length: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** What `lstat` and `readdir` say about an entry. */
export interface EntryType {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The file operations FileStore needs; injectable so tests can simulate a crash or a full disk. */
export interface FileOps {
  mkdir(path: string, options: { recursive: boolean }): Promise<unknown>;
  open(path: string, flags: string | number): Promise<FileHandleOps>;
  readFile(path: string, options: { encoding: 'utf8' }): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, created: string): Promise<void>;
  readdir(path: string, options: { withFileTypes: true }): Promise<(EntryType & { name: string })[]>;
  lstat(path: string): Promise<EntryType & { nlink: number }>;
  realpath(path: string): Promise<string>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
}

/** Bytes read at a time when looking backwards for the last newline of a file. */
const TAIL_CHUNK_BYTES = 64 * 1024;
export const NEWLINE = 0x0a;

/** One write call for the whole buffer; only a short write (a disk filling up) takes more. */
export async function writeWhole(file: FileHandleOps, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await file.write(data, offset, data.length - offset, null);
    if (bytesWritten <= 0) throw Object.assign(new Error('ENOSPC: no space left on device (nothing was written)'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

export async function readBytes(file: FileHandleOps, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/** The offset just after the last newline before `end`, or 0 when there is none. */
export async function lineStartBefore(file: FileHandleOps, end: number): Promise<number> {
  for (let chunkEnd = end; chunkEnd > 0; chunkEnd -= TAIL_CHUNK_BYTES) {
    const start = Math.max(0, chunkEnd - TAIL_CHUNK_BYTES);
    const chunk = await readBytes(file, start, chunkEnd - start);
    const at = chunk.lastIndexOf(NEWLINE);
    if (at !== -1) return start + at + 1;
  }
  return 0;
}
