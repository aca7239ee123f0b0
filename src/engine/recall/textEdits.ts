/**
 * Edits an agent writes in its own text and its host applies from there: Aider's SEARCH/REPLACE blocks, each after
 * the line that names its file (before the code fence, or inside it just above the block). Read like an edit tool's
 * input, so what such an edit put in is kept as any edit's is.
 */

/** One edit written in a message's text: the file it names, the text it replaces and its replacement. */
export interface TextEdit {
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

/** Characters of a message read for edits. @default 200000 */
const TEXT_EDIT_CHARS = 200_000;
/** Lines looked back from a block's start for the line that names its file. @default 3 */
const PATH_LOOKBACK_LINES = 3;
const SEARCH_START = /^<{5,9} SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE_END = /^>{5,9} REPLACE\s*$/;
const FENCE = /^\s*(?:```|~~~)/;
/** A file's name on a line of its own: no spaces, a dot or a slash in it. */
const PATH_LINE = /^[\w./\\@+-]*[./\\][\w./\\@+-]*$/;

/** The SEARCH/REPLACE edits in `text` that name their file, in order. */
export function textEdits(text: string): TextEdit[] {
  if (!text.includes('SEARCH')) return [];
  const lines = text.slice(0, TEXT_EDIT_CHARS).split('\n');
  const edits: TextEdit[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!SEARCH_START.test(lines[i])) continue;
    const divider = indexFrom(lines, i + 1, DIVIDER);
    const end = divider < 0 ? -1 : indexFrom(lines, divider + 1, REPLACE_END);
    if (end < 0) break;
    const path = pathBefore(lines, i);
    if (path !== undefined) {
      edits.push({ path, before: lines.slice(i + 1, divider).join('\n'), after: lines.slice(divider + 1, end).join('\n') });
    }
    i = end;
  }
  return edits;
}

function indexFrom(lines: readonly string[], from: number, pattern: RegExp): number {
  for (let i = from; i < lines.length; i++) if (pattern.test(lines[i])) return i;
  return -1;
}

/** The file a block at `start` names: the nearest line above it that is a file's name, past its code fence. */
function pathBefore(lines: readonly string[], start: number): string | undefined {
  for (let i = start - 1; i >= 0 && i >= start - PATH_LOOKBACK_LINES; i--) {
    const line = lines[i].trim();
    if (line.length === 0 || FENCE.test(line)) continue;
    return PATH_LINE.test(line) ? line : undefined;
  }
  return undefined;
}
