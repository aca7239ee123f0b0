/**
 * The lines of a written file that open what it defines: a line at the file's left margin whose next line is
 * indented under it (`export function normalizeSku(raw: string): string {`, `def load_rates(path):`,
 * `defmodule Shop.Cart do`; not `[tool.ruff]`, under which nothing is indented). Told by the layout alone, in any
 * language that indents a body under its header; after the write has left the context they still say what the file
 * holds, word for word. Beside them, a file's named constants set to a number (`readConstantLines`): a one-line
 * definition with no body, and often the very setting the work is about.
 */

import { READER_LINE_NUMBER } from '../text/readerLineNumbers';

/** Most definition lines read from one file. @default 3 */
export const MAX_DEFINITION_LINES = 3;
/** Characters of a file read for its definitions. @default 20000 */
const DEFINITION_CHARS = 20_000;
/** Longest line taken, in characters: longer ones are data. @default 200 */
const MAX_DEFINITION_CHARS = 200;
/** Two words: a header names something beside its keyword (`import {` alone opens a list, not a definition). */
const TWO_WORDS = /\p{L}[\p{L}\p{N}_]*[^\p{L}\p{N}_]+[\p{L}_][\p{L}\p{N}_]*/u;

/**
 * What opens a body without defining anything: a control statement (`for (…) {`, `if ready:`, `} else {`), an item of
 * a list with items under it (`- Order imports as follows:`), a comment.
 */
const CONTROL_WORDS = [
  ...['if', 'else', 'elif', 'unless', 'for', 'foreach', 'while', 'until', 'do', 'loop'],
  ...['switch', 'match', 'case', 'when', 'select', 'try', 'catch', 'except', 'finally', 'with', 'return', 'await', 'yield'],
];
const NOT_A_DEFINITION = new RegExp(
  `^(?:[}\\])]\\s*)?(?:${CONTROL_WORDS.join('|')})\\b|^(?:[-*+>]|\\d+[.)])\\s|^(?:\\/\\/|\\/\\*|#(?!\\[)|--|<!--)`,
);

/**
 * The definition lines of a file as a reader showed it ({@link definitionLines}), the line number it put before each
 * line taken off when most lines have one.
 */
export function readDefinitionLines(shown: string): string[] {
  return definitionLines(shownLines(shown).join('\n'));
}

/** The lines of a file as a reader showed it, the line number it put before each taken off when most lines have one. */
function shownLines(shown: string): string[] {
  const lines = shown.slice(0, DEFINITION_CHARS).split('\n');
  const numbered = lines.filter((l) => READER_LINE_NUMBER.test(l)).length > lines.length / 2;
  return numbered ? lines.map((l) => l.replace(READER_LINE_NUMBER, '')) : lines;
}

/** The first {@link MAX_DEFINITION_LINES} definition lines of `content`, in order, as written. */
export function definitionLines(content: string): string[] {
  const lines = content.slice(0, DEFINITION_CHARS).split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length && found.length < MAX_DEFINITION_LINES; i++) {
    const line = lines[i].trimEnd();
    if (line.length === 0 || line.length > MAX_DEFINITION_CHARS || /^\s/.test(line) || !TWO_WORDS.test(line)) continue;
    if (NOT_A_DEFINITION.test(line)) continue;
    let next = i + 1;
    while (next < lines.length && lines[next].trim().length === 0) next++;
    if (next < lines.length && /^\s+\S/.test(lines[next]) && !found.includes(line)) found.push(line);
  }
  return found;
}

/**
 * The lines of a piece of a file (what an edit put in) that open what they define, read as {@link definitionLines}
 * reads a whole file, with the piece's least indented lines as its left margin: a method put into a class is as much
 * a definition as a function at the top of a file.
 */
export function pieceDefinitionLines(lines: readonly string[]): string[] {
  const margin = Math.min(...lines.filter((line) => line.trim().length > 0).map((line) => /^\s*/.exec(line)?.[0].length ?? 0));
  if (!Number.isFinite(margin)) return [];
  return definitionLines(lines.map((line) => line.slice(Math.min(margin, /^\s*/.exec(line)?.[0].length ?? 0))).join('\n')).map((line) =>
    line.trim(),
  );
}

/** Most named constants read from one file. @default 3 */
export const MAX_CONSTANT_LINES = 3;
/**
 * A named constant set at a file's left margin to a number written out: a keyword or none, a name in capitals with an
 * underscore or a digit, and a number or an arithmetic of numbers, with the line's own comment after it
 * (`const MAX_UPLOAD_BYTES = 5 * 1024 * 1024; // per file`, `RETRY_LIMIT = 5`, `#define BUF_SIZE 4096`). Strings are left
 * out: a file of settings read as strings (`.env`) holds keys and passwords.
 */
const CONSTANT_KEYWORDS = String.raw`(?:(?:export|public|private|static|final|readonly|pub|const|let|var|val|#define)\s+)*`;
const CONSTANT_NAME = String.raw`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:\s*:\s*[\w.<>[\]]+)?`;
const NUMBER_WRITTEN_OUT = String.raw`-?\d[\d_.]*(?:\s*[-+*/]\s*\d[\d_.]*)*`;
const OWN_COMMENT = String.raw`(?:(?:\/\/|#)\s*\S.*)?`;
const NAMED_CONSTANT = new RegExp(
  `^${CONSTANT_KEYWORDS}${CONSTANT_NAME}\\s*(?:=|:=|\\s)\\s*${NUMBER_WRITTEN_OUT}\\s*;?\\s*${OWN_COMMENT}$`,
);

/** The named constants (see {@link NAMED_CONSTANT}) of a file as a reader showed it, at most {@link MAX_CONSTANT_LINES}. */
export function readConstantLines(shown: string): string[] {
  const found: string[] = [];
  for (const shownLine of shownLines(shown)) {
    const line = shownLine.trimEnd();
    if (line.length > MAX_DEFINITION_CHARS || !NAMED_CONSTANT.test(line) || found.includes(line)) continue;
    found.push(line);
    if (found.length >= MAX_CONSTANT_LINES) break;
  }
  return found;
}
