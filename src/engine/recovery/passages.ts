/**
 * Long texts are indexed as passages: windows of lines, bounded in characters, overlapping a little
 * so a match near a window's edge still has its context. A hit then names a line range, not a file.
 */
import { countLines } from '../preview/lines';
import { ownCopy } from '../text/ownCopy';

/** About one screen of a log or source file. */
export const PASSAGE_MAX_LINES = 40;
/** A passage stays short enough to rank well and to excerpt cheaply, even on minified lines. */
export const PASSAGE_MAX_CHARS = 2_000;
/** Lines repeated at the start of the next window. */
export const PASSAGE_OVERLAP_LINES = 5;
/** Characters repeated between the chunks of one overlong line. */
const LONG_LINE_OVERLAP_CHARS = 200;

/** A window of a text, with its 1-based inclusive line range and where it stands in the text. */
export interface Passage {
  readonly text: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The passage is the text's characters from `from` up to `to` (exclusive): what it is read back from. */
  readonly from: number;
  readonly to: number;
}

/**
 * Splits a text into overlapping line windows; a line longer than a passage is cut into chunks.
 * Each passage says where it stands in the text, so an index can keep the place and read the text
 * back when it needs it (an archived message, an offloaded file) instead of holding it.
 */
export function splitIntoPassages(text: string): Passage[] {
  const lines = new LineOffsets(text);
  const passages: Passage[] = [];
  let start = 0;
  while (start < lines.count) {
    const end = windowEnd(lines, start);
    const from = lines.start(start);
    const long = end === start + 1 && lines.length(start) > PASSAGE_MAX_CHARS;
    const text = lines.text(start, end);
    passages.push(
      ...(long ? chunkLongLine(text, start + 1, from) : [{ text, startLine: start + 1, endLine: end, from, to: lines.end(end - 1) }]),
    );
    if (end >= lines.count) break;
    // At most a quarter of a window is repeated, so short windows (long lines) do not double the index.
    start = Math.max(start + 1, end - Math.min(PASSAGE_OVERLAP_LINES, Math.floor((end - start) / 4)));
  }
  return passages;
}

/** Where each line of a text starts, so runs of lines are sliced from the text rather than split and joined again. */
class LineOffsets {
  private readonly starts: number[] = [0];
  /** Lines, as `split('\n')` counts them less a last empty one (the text's final line break). */
  readonly count: number;

  constructor(private readonly whole: string) {
    for (let at = whole.indexOf('\n'); at >= 0; at = whole.indexOf('\n', at + 1)) this.starts.push(at + 1);
    this.count = this.starts[this.starts.length - 1] === whole.length ? this.starts.length - 1 : this.starts.length;
  }

  /** Characters of line `i`, without its line break. */
  length(i: number): number {
    return this.end(i) - this.starts[i];
  }

  /** Lines `from` up to `to` (exclusive) joined by their line breaks. */
  text(from: number, to: number): string {
    return this.whole.slice(this.starts[from], this.end(to - 1));
  }

  /** Where line `i` starts in the text. */
  start(i: number): number {
    return this.starts[i];
  }

  /** Where line `i` ends in the text, before its line break. */
  end(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1] - 1 : this.whole.length;
  }
}

/** Exclusive end of the window starting at `start`: up to the line or character bound, at least one line. */
function windowEnd(lines: LineOffsets, start: number): number {
  let end = start;
  let chars = 0;
  while (end < lines.count && end - start < PASSAGE_MAX_LINES) {
    const next = chars + lines.length(end) + 1;
    if (end > start && next > PASSAGE_MAX_CHARS) break;
    chars = next;
    end++;
  }
  return end;
}

function chunkLongLine(line: string, lineNumber: number, lineStart: number): Passage[] {
  const chunks: Passage[] = [];
  const step = PASSAGE_MAX_CHARS - LONG_LINE_OVERLAP_CHARS;
  for (let from = 0; from < line.length; from += step) {
    const text = line.slice(from, from + PASSAGE_MAX_CHARS);
    chunks.push({ text, startLine: lineNumber, endLine: lineNumber, from: lineStart + from, to: lineStart + from + text.length });
    if (from + PASSAGE_MAX_CHARS >= line.length) break;
  }
  return chunks;
}

/** The part of a text that gets indexed, and whether anything was left out. */
export interface CappedText {
  readonly text: string;
  readonly capped: boolean;
  readonly totalChars: number;
  /** The last line (1-based) that is indexed in full or in part. */
  readonly lastLine: number;
}

/** Keeps at most `maxChars`, cut at a line break when one is in the second half of the kept part. */
export function capForIndexing(text: string, maxChars: number): CappedText {
  if (text.length <= maxChars) return { text, capped: false, totalChars: text.length, lastLine: countLines(text) };
  const newline = text.lastIndexOf('\n', maxChars);
  // A copy, not a slice: the passages are slices of what is kept, and a slice would keep the whole text alive.
  const kept = ownCopy(text.slice(0, newline > maxChars / 2 ? newline : maxChars));
  return { text: kept, capped: true, totalChars: text.length, lastLine: countLines(kept) };
}
