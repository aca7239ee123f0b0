/**
 * The reading side of ctx's `ctx_read_offloaded` tool: part of an offloaded result, by line range,
 * numbered, and never longer than the caller can take in one tool result.
 */
import type { Store } from '../ports';
import { countLines } from '../preview/lines';
import { sessionPaths } from '../model/sessionPaths';
import { resolveOffloadedFile } from './offloadedPath';
import { OffloadedFileNotFoundError, OffloadedPathRefusedError, OffloadedRangeError } from './recoveryErrors';
import { formatCount } from '../text/numbers';
import { storageReasonOf } from '../storage/storageError';

/** Tool output is best kept under ~20k characters; one read stays inside that. */
export const DEFAULT_READ_MAX_CHARS = 20_000;
/** Whatever the caller asks, one read returns at most this much: a model can ask for 10 MB. */
export const READ_MAX_CHARS_LIMIT = 100_000;
/** Below this a read could not show even one numbered line usefully. */
const READ_MIN_CHARS = 200;

export interface ReadOffloadedOptions {
  /** First line to return, 1-based. @default 1 */
  readonly startLine?: number;
  /** Last line to return, inclusive; past the end means the end. @default the last line */
  readonly endLine?: number;
  /**
   * Column of the start line to begin at, 1-based: how a read goes on inside a line too long for
   * one read (minified JSON). @default 1
   */
  readonly startColumn?: number;
  /** Upper bound on the length of `text`, line numbers included; clamped to 200–100,000. @default 20000 */
  readonly maxChars?: number;
  /** Prefix each line with its number and a tab, like `cat -n`. @default true */
  readonly lineNumbers?: boolean;
}

/** Where the next read starts. */
export interface NextRange {
  readonly startLine: number;
  /** Set when the previous read stopped inside this line. */
  readonly startColumn?: number;
}

/** Part of an offloaded file. */
export interface OffloadedRange {
  /** The store path of the file. */
  readonly file: string;
  /** The bare file name, which is what the tool takes. */
  readonly name: string;
  readonly totalLines: number;
  /** First line shown (0 for an empty file). */
  readonly startLine: number;
  /** Last line shown, possibly only in part (see `next.startColumn`); 0 for an empty file. */
  readonly endLine: number;
  readonly text: string;
  /** True when `maxChars` stopped the read before the end of the requested range. */
  readonly truncated: boolean;
  /** Where to read on; undefined when the end of the file was shown. */
  readonly next?: NextRange;
  /** Plain words for the caller: what was shown and how to read the next range. */
  readonly hint: string;
}

/**
 * Reads a range of lines of an offloaded file. Accepts the bare name or a session- or
 * store-relative path; throws `OffloadedPathRefusedError` for anything outside the session's
 * offloaded folder and for links and folders inside it (a link is never followed),
 * `OffloadedFileNotFoundError` (with the available names) when it does not exist, and
 * `OffloadedRangeError` when the range is not inside the file.
 */
export async function readOffloaded(
  store: Store,
  sessionId: string,
  nameOrPath: string,
  options: ReadOffloadedOptions = {},
): Promise<OffloadedRange> {
  const file = resolveOffloadedFile(store, sessionId, nameOrPath);
  const kind = await store.kindOf(file.path);
  if (kind === 'link' || kind === 'folder') throw new OffloadedPathRefusedError(nameOrPath, sessionId, kind);
  const content =
    kind === 'file'
      ? await store.read(file.path).catch((e: unknown) => {
          if (storageReasonOf(e) === 'hard-link') throw new OffloadedPathRefusedError(nameOrPath, sessionId, 'hardLink');
          throw e;
        })
      : undefined;
  if (content === undefined) {
    const entries = await store.entries(sessionPaths(sessionId).offloaded);
    throw new OffloadedFileNotFoundError(
      file.name,
      sessionId,
      entries.filter((e) => e.kind === 'file').map((e) => e.name),
    );
  }
  const totalLines = countLines(content);
  const base = { file: file.path, name: file.name, totalLines };
  if (totalLines === 0) {
    return { ...base, startLine: 0, endLine: 0, text: '', truncated: false, hint: `${file.name} is empty.` };
  }
  const startLine = options.startLine ?? 1;
  const requestedEnd = options.endLine ?? totalLines;
  const startColumn = options.startColumn ?? 1;
  if (
    !isWholeAtLeastOne(startLine) ||
    !isWholeAtLeastOne(requestedEnd) ||
    !isWholeAtLeastOne(startColumn) ||
    startLine > totalLines ||
    requestedEnd < startLine
  ) {
    throw new OffloadedRangeError(file.name, totalLines, startLine, options.endLine);
  }
  const maxChars = Math.min(READ_MAX_CHARS_LIMIT, Math.max(READ_MIN_CHARS, options.maxChars ?? DEFAULT_READ_MAX_CHARS));
  const endLine = Math.min(requestedEnd, totalLines);
  const part = collectLines(content, { startLine, endLine, startColumn, maxChars, lineNumbers: options.lineNumbers ?? true });
  const next = part.next ?? (part.lastLine < totalLines ? { startLine: part.lastLine + 1 } : undefined);
  return {
    ...base,
    startLine,
    endLine: part.lastLine,
    text: part.text,
    truncated: part.next !== undefined,
    ...(next ? { next } : {}),
    hint: hintFor(file.name, startLine, part.lastLine, totalLines, maxChars, part.next !== undefined, next),
  };
}

interface LineWindow {
  readonly startLine: number;
  readonly endLine: number;
  readonly startColumn: number;
  readonly maxChars: number;
  readonly lineNumbers: boolean;
}

interface CollectedLines {
  readonly text: string;
  readonly lastLine: number;
  /** Set when maxChars stopped the read inside the window. */
  readonly next?: NextRange;
}

/** Walks the lines with indexOf, so a 50 MB file is never split into an array. */
function collectLines(content: string, w: LineWindow): CollectedLines {
  const width = String(w.endLine).length;
  const parts: string[] = [];
  let used = 0;
  let pos = offsetOfLine(content, w.startLine);
  let column = w.startColumn;
  for (let line = w.startLine; line <= w.endLine; line++) {
    const newline = content.indexOf('\n', pos);
    const lineEnd = newline === -1 ? content.length : newline;
    const body = content.slice(Math.min(pos + column - 1, lineEnd), lineEnd).replace(/\r$/, '');
    const prefix = w.lineNumbers ? `${String(line).padStart(width)}\t` : '';
    const separator = parts.length > 0 ? 1 : 0;
    if (used + separator + prefix.length + body.length <= w.maxChars) {
      parts.push(prefix + body);
      used += separator + prefix.length + body.length;
      pos = lineEnd + 1;
      column = 1;
      continue;
    }
    if (parts.length > 0) return { text: parts.join('\n'), lastLine: line - 1, next: { startLine: line } };
    const taken = sliceWholeCharacters(body, Math.max(1, w.maxChars - prefix.length));
    return { text: prefix + taken, lastLine: line, next: { startLine: line, startColumn: column + taken.length } };
  }
  return { text: parts.join('\n'), lastLine: w.endLine };
}

/** Offset of the first character of a 1-based line that is known to exist. */
function offsetOfLine(content: string, line: number): number {
  let pos = 0;
  for (let n = 1; n < line; n++) pos = content.indexOf('\n', pos) + 1;
  return pos;
}

/** A prefix of at most `max` characters that does not end between the halves of a surrogate pair. */
function sliceWholeCharacters(text: string, max: number): string {
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return cut.length > 1 && last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function isWholeAtLeastOne(n: number): boolean {
  return Number.isInteger(n) && n >= 1;
}

function hintFor(
  name: string,
  start: number,
  last: number,
  total: number,
  maxChars: number,
  cut: boolean,
  next: NextRange | undefined,
): string {
  const shown = `Lines ${formatCount(start)}–${formatCount(last)} of ${formatCount(total)} of ${name}.`;
  const why = cut ? ` Stopped at the ${formatCount(maxChars)}-character limit.` : '';
  if (!next) return `${shown}${why} This is the end of the file.`;
  const where =
    next.startColumn === undefined
      ? `startLine ${next.startLine}`
      : `startLine ${next.startLine} and startColumn ${next.startColumn} (line ${next.startLine} goes on)`;
  return `${shown}${why} To read on, call again with ${where}.`;
}
