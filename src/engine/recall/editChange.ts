/**
 * What an edit changed, read from its call's input: the first line it took out and the first line
 * it put in. Agents' edit tools name the text they replace and its replacement (`old_string` /
 * `new_string`, `oldString` / `newString`, `old_str` / `new_str`, a list of such edits) or pass a
 * patch (`*** Begin Patch`, a unified diff, `SEARCH` / `REPLACE` blocks); all are read the same way.
 * A line is given whole, never cut inside a value it opens.
 */
import { isRecord } from '../schema';
import { bracketsLeftOpen } from '../text/openValue';

/** The first changed line on each side of an edit, trimmed; either may be missing (a pure insertion or deletion). */
export interface EditChange {
  readonly removed?: string;
  readonly added?: string;
}

/** Field pairs holding the replaced text and its replacement. */
const REPLACEMENT_KEYS: readonly (readonly [string, string])[] = [
  ['old_string', 'new_string'],
  ['oldString', 'newString'],
  ['old_str', 'new_str'],
  ['old_text', 'new_text'],
  ['oldText', 'newText'],
  ['old', 'new'],
  ['search', 'replace'],
];
/**
 * Keys holding text an edit only puts in, when the input names nothing it replaces: an insertion (`new_str` of an
 * `insert`), a snippet merged into the file (Copilot's `code`, a notebook cell's `newCode`).
 */
const INSERTED_KEYS = ['new_str', 'new_string', 'newString', 'new_text', 'newText', 'newCode', 'new_code', 'code', 'insert_text'];
/** Every key holding text an edit takes out or puts in: what the file holds, never the agent's words about it. */
export const EDIT_TEXT_KEYS: ReadonlySet<string> = new Set([...REPLACEMENT_KEYS.flat(), ...INSERTED_KEYS]);
/** A snippet's stand-in for the file's lines it leaves as they are (`// ...existing code...`). */
const EXISTING_CODE_MARK = /^\W*\.{3}\s*existing code\s*\.{3}\W*$/i;

/** The text an edit only puts in (see {@link INSERTED_KEYS}), without a snippet's stand-ins for unchanged lines. */
function insertedText(input: Readonly<Record<string, unknown>>): string | undefined {
  const key = INSERTED_KEYS.find((k) => typeof input[k] === 'string');
  if (key === undefined) return undefined;
  return (input[key] as string)
    .split('\n')
    .filter((line) => !EXISTING_CODE_MARK.test(line.trim()))
    .join('\n');
}

/** Characters of an input read for a patch. @default 20000 — a large patch's first change is near its start. */
const PATCH_CHARS = 20_000;
const PATCH_START = /^(?:\*\*\* Begin Patch|diff --git |--- |@@ )|\n@@ /;
const SEARCH_BLOCKS = /<{5,} SEARCH\r?\n([\s\S]*?)\r?\n={5,}\r?\n([\s\S]*?)\r?\n>{5,} REPLACE/g;
/** A line that says something: a few letters, not only brackets and punctuation. */
const MEANINGFUL = /\p{L}.*\p{L}.*\p{L}/u;
/** Longest line taken as a change, in characters: longer lines are data (minified code, a blob). @default 300 */
export const MAX_CHANGE_LINE_CHARS = 300;

/** What an edit's input names: the pairs of replaced and replacing text, in order, or a patch's text. */
type EditParts = { readonly pairs: readonly (readonly [string, string])[] } | { readonly patch: string };

/**
 * The parts of an edit's input: its replacement, or the replacements of a list of edits, or every block of a diff of
 * SEARCH/REPLACE blocks (Cline's `replace_in_file` holds several), or a patch, or else the text it only inserts.
 */
function editParts(input: Readonly<Record<string, unknown>>): EditParts | undefined {
  const pair = replacementOf(input);
  if (pair) return { pairs: [pair] };
  const pairs: (readonly [string, string])[] = [];
  for (const value of Object.values(input)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        const inner = isRecord(item) ? replacementOf(item) : undefined;
        if (inner) pairs.push(inner);
      }
    } else if (typeof value === 'string' && pairs.length === 0) {
      const text = value.slice(0, PATCH_CHARS);
      const blocks = text.includes('SEARCH') ? [...text.matchAll(SEARCH_BLOCKS)] : [];
      for (const block of blocks) pairs.push([block[1], block[2]]);
      if (blocks.length === 0 && PATCH_START.test(text)) return { patch: text };
    }
  }
  if (pairs.length > 0) return { pairs };
  const inserted = insertedText(input);
  return inserted === undefined ? undefined : { pairs: [['', inserted]] };
}

/** The first change an edit's input describes, or undefined when it names none. */
export function editChange(input: Readonly<Record<string, unknown>>): EditChange | undefined {
  const parts = editParts(input);
  if (parts === undefined) return undefined;
  if ('patch' in parts) return patchChange(parts.patch);
  const [before, after] = parts.pairs[0];
  return changeBetween(before, after);
}

/**
 * The lines an edit's input puts in that were not there before, in order: the replacements' lines the replaced text
 * lacks, or a patch's added lines. Empty when it names none.
 */
export function addedLines(input: Readonly<Record<string, unknown>>): string[] {
  const parts = editParts(input);
  if (parts === undefined) return [];
  if ('patch' in parts) return patchAddedLines(parts.patch);
  return parts.pairs.flatMap(([before, after]) => {
    const was = new Set(before.split('\n').map((line) => line.trim()));
    return after.split('\n').filter((line) => line.trim().length > 0 && !was.has(line.trim()));
  });
}

/**
 * The first meaningful line, whole (see `firstMeaningful`), of each stretch of lines an edit's input puts in, in order:
 * an edit of several places (a call changed here, a guard added further down) puts in a line at each, and the first
 * says only what the first place holds now. Lines are put in as `addedLines` reads them; a stretch ends at a line the
 * replaced text had, or at a patch's line that it does not add.
 */
export function putInStretches(input: Readonly<Record<string, unknown>>): string[] {
  const parts = editParts(input);
  if (parts === undefined) return [];
  const found: string[] = [];
  for (const { lines, putIn } of markedSides(parts)) {
    for (let start = 0; start < lines.length; start++) {
      if (!putIn[start] || lines[start].trim().length === 0) continue;
      let end = start;
      while (end < lines.length && putIn[end]) end++;
      const first = firstMeaningful(lines, start, end);
      if (first !== undefined) found.push(first);
      start = end;
    }
  }
  return found;
}

/** The lines an edit leaves in each place it names, each marked whether the edit put it in (a blank line goes either way). */
function markedSides(parts: EditParts): { readonly lines: readonly string[]; readonly putIn: readonly boolean[] }[] {
  if ('patch' in parts) {
    const lines = parts.patch.split('\n');
    return [{ lines: lines.map((line) => (isPatchAdded(line) ? line.slice(1) : line)), putIn: lines.map(isPatchAdded) }];
  }
  return parts.pairs.map(([before, after]) => {
    const was = new Set(before.split('\n').map((line) => line.trim()));
    const lines = after.split('\n');
    return { lines, putIn: lines.map((line) => line.trim().length === 0 || !was.has(line.trim())) };
  });
}

/** A patch's added line (`+…`), not its file header (`+++ b/…`). */
function isPatchAdded(line: string): boolean {
  return line.startsWith('+') && !line.startsWith('+++');
}

/** A line that only comments: what follows it is the code it speaks of. */
const COMMENT_LINE = /^(?:\/\/|\/\*|\*\s|#\s|--\s|<!--|"""|''')/;

/**
 * The first line of code among an edit's added lines (`addedLines`) after a comment they open with, whole (see
 * `firstMeaningful`): the comment is its first added line, and the code is what the file does now. Undefined when the
 * edit opens with code.
 */
export function codeAfterComment(lines: readonly string[]): string | undefined {
  const first = lines.findIndex(isChangeLine);
  if (first < 0 || !COMMENT_LINE.test(lines[first].trim())) return undefined;
  for (let i = first + 1; i < lines.length; i++) {
    if (!isChangeLine(lines[i]) || COMMENT_LINE.test(lines[i].trim())) continue;
    const value = wholeValue(lines, i, lines.length);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A patch's added lines (`+…`), without its file headers, each without its mark. */
function patchAddedLines(text: string): string[] {
  return text
    .split('\n')
    .filter(isPatchAdded)
    .map((line) => line.slice(1));
}

/** The text an edit's input replaces and its replacement, when it names them by a pair of keys (`old_string` / `new_string`). */
export function replacementOf(input: Readonly<Record<string, unknown>>): readonly [string, string] | undefined {
  for (const [from, to] of REPLACEMENT_KEYS) {
    const old = input[from];
    const replacement = input[to];
    if (typeof old === 'string' && typeof replacement === 'string') return [old, replacement];
  }
  return undefined;
}

/** The first meaningful line of each side of the stretch where `before` and `after` differ. */
export function changeBetween(before: string, after: string): EditChange | undefined {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start].trim() === b[start].trim()) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1].trim() === b[endB - 1].trim()) {
    endA--;
    endB--;
  }
  return withLines(firstMeaningful(a, start, endA), firstMeaningful(b, start, endB));
}

/** The first removed and added lines of a patch: `*** Begin Patch` or a unified diff. */
function patchChange(text: string): EditChange | undefined {
  const lines = text.split('\n').filter((line) => !line.startsWith('---') && !line.startsWith('+++'));
  return withLines(firstOfSide(lines, '-'), firstOfSide(lines, '+'));
}

/** The first meaningful line of one side of a patch (`-` or `+`), with the lines of that side right after it that close its value. */
function firstOfSide(lines: readonly string[], mark: '-' | '+'): string | undefined {
  let run: string[] = [];
  for (const line of [...lines, '']) {
    if (line.startsWith(mark)) {
      run.push(line.slice(1));
      continue;
    }
    const first = firstMeaningful(run, 0, run.length);
    if (first !== undefined) return first;
    run = [];
  }
  return undefined;
}

/**
 * The first meaningful line between `from` and `to`, whole: a line that opens a value it does not
 * close (`"Stop": [`, `if (ready &&`) is taken with the lines that close it, on one line, when
 * they are short enough; else the next line that is whole on its own stands for the change.
 */
function firstMeaningful(lines: readonly string[], from: number, to: number): string | undefined {
  for (let i = from; i < to; i++) {
    if (!isChangeLine(lines[i])) continue;
    const value = wholeValue(lines, i, to);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The line at `at` with the lines that close what it opens, on one line; undefined when they run past `to` or too long. */
function wholeValue(lines: readonly string[], at: number, to: number): string | undefined {
  let text = lines[at].trim();
  let depth = bracketsLeftOpen(text);
  if (depth === 0) return text;
  if (depth < 0) return undefined;
  for (let i = at + 1; i < to && text.length <= MAX_CHANGE_LINE_CHARS; i++) {
    const next = lines[i].trim();
    if (next.length === 0) continue;
    text = `${text} ${next}`;
    depth = bracketsLeftOpen(text);
    if (depth <= 0) return depth === 0 && text.length <= MAX_CHANGE_LINE_CHARS ? text : undefined;
  }
  return undefined;
}

function isChangeLine(line: string): boolean {
  const text = line.trim();
  return text.length >= 4 && text.length <= MAX_CHANGE_LINE_CHARS && MEANINGFUL.test(text);
}

function withLines(removed: string | undefined, added: string | undefined): EditChange | undefined {
  if (removed === undefined && added === undefined) return undefined;
  return { ...(removed !== undefined ? { removed } : {}), ...(added !== undefined ? { added } : {}) };
}
