/**
 * Reading only what a Copilot transcript copy gained since the last import. Copilot only appends to its transcript
 * and the hook replaces the copy with a longer one, so what was taken is known by its end (a byte offset just past a
 * line's newline) and by the copy's first bytes: when those are the same, only the bytes past the end are read. A
 * copy whose first bytes differ is another transcript under the same name, read from its start.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../engine/host/ports';

/** Bytes at the start of a copy that say which transcript it is (Copilot's first line names its session and time). */
export const HEAD_BYTES = 1024;
/** Bytes read at a time; a line longer than this is read with a larger read. */
const CHUNK_BYTES = 1024 * 1024;

/** Where a copy was read up to, as kept between imports. */
export interface ReadMark {
  /** Bytes of whole lines taken. */
  readonly bytes: number;
  /** Digest of the copy's first `HEAD_BYTES` bytes (fewer when it was shorter) when it was taken. */
  readonly head: string;
}

/** Whole lines read from `from` on (each ended by a newline), and the mark after them. */
export interface LinesRead {
  readonly text: string;
  readonly mark: ReadMark;
}

/** The digest of a copy's head, as a mark keeps it. */
export async function headDigest(store: Store, path: string): Promise<string> {
  const head = (await store.readRange(path, 0, HEAD_BYTES)) ?? '';
  return createHash('sha1').update(head).digest('hex');
}

/**
 * The whole lines a copy gained past `mark`; from its start when `mark` is undefined or is another transcript's
 * (its head differs, or the copy is shorter than what was taken). `restarted` says which.
 */
export async function readNewLines(store: Store, path: string, mark: ReadMark | undefined): Promise<LinesRead & { restarted: boolean }> {
  const head = await headDigest(store, path);
  const same = mark !== undefined && mark.head === head && (await endsLineAt(store, path, mark.bytes));
  const from = same ? mark.bytes : 0;
  const text = await wholeLinesFrom(store, path, from);
  return { text, mark: { bytes: from + Buffer.byteLength(text, 'utf8'), head }, restarted: !same };
}

/** True when the copy holds at least `bytes` bytes and the last of them is a newline (0: the start). */
async function endsLineAt(store: Store, path: string, bytes: number): Promise<boolean> {
  if (bytes === 0) return true;
  return (await store.readRange(path, bytes - 1, 1)) === '\n';
}

/**
 * The text of the whole lines from byte `from` (a line's start) on; a last line without its newline is left for the
 * next read. Chunks are cut at their last newline, so no character is split between two reads.
 */
async function wholeLinesFrom(store: Store, path: string, from: number): Promise<string> {
  const parts: string[] = [];
  let at = from;
  let size = CHUNK_BYTES;
  for (;;) {
    const chunk = (await store.readRange(path, at, size)) ?? '';
    if (chunk === '') break;
    const cut = chunk.lastIndexOf('\n');
    if (cut === -1) {
      // No whole line in this read: the copy ends in a line still being written, or a line is longer than the read.
      if (((await store.readRange(path, at + size, 1)) ?? '') === '') break;
      size *= 2;
      continue;
    }
    const whole = chunk.slice(0, cut + 1);
    parts.push(whole);
    at += Buffer.byteLength(whole, 'utf8');
    size = CHUNK_BYTES;
  }
  return parts.join('');
}
