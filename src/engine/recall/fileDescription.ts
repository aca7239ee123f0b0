/**
 * What a file says it is: the comment or docstring lines at the top of a file the agent read
 * (`# Pre-commit hook: …`, `"""Parses the meter exports."""`, `// Routes for the admin API`), in
 * any language's comment syntax, or a manifest's own description field (`"description": "…"` of a
 * `package.json`, `description = "…"` of a `Cargo.toml`). After the read has left the context they
 * still tell what the file is for, word for word, at the cost of a line or two.
 */
import { headLines } from '../preview/lines';
import { READER_LINE_NUMBER } from '../text/readerLineNumbers';

/** Lines at the top of a file looked at for its description. @default 15 */
export const DESCRIPTION_HEAD_LINES = 15;
/** Most description lines taken from one file. @default 2 */
export const MAX_DESCRIPTION_LINES = 2;
/** Fewest words of letters a line needs to describe something rather than name it. @default 3 */
const MIN_DESCRIPTION_WORDS = 3;
/** Longest line taken, in characters. @default 160 */
const MAX_DESCRIPTION_CHARS = 160;

/** A comment's opening in the common syntaxes; not a shebang, a preprocessor line or an attribute. */
const COMMENT = /^(?:#(?![![]|include\b|define\b|import\b|pragma\b|if|endif\b|else\b)|\/\/|\/\*|\*(?!\/)|--|;;|<!--|%)/;
/** A comment's marker characters at its start and its end. */
const COMMENT_MARKERS = /^(?:#+|\/\/+|\/\*+|\*+|--|;+|<!--|%+)\s*|\s*(?:\*\/|-->)\s*$/g;
/** A docstring's quotes, after an Elixir `@moduledoc` where there is one. */
const DOCSTRING_OPEN = /^(?:@\w+\s+)?("""|''')/;
const WORD = /\p{L}{2,}/gu;
/**
 * A manifest's description field at its top level, in JSON, TOML or YAML (`"description": "…",`,
 * `description = "…"`, `description: …`), at most one level in: a package's own, not one of its parts'.
 */
const DESCRIPTION_FIELD = /^(?:\t|\s{0,4})(?:"description"\s*:|description\s*[=:])\s*(?:"([^"]*)"|'([^']*)'|([^"'\s].*?))\s*,?$/;
/** Boilerplate every file of a project carries: it says nothing about this one. */
const BOILERPLATE = /\b(?:copyright|licen[sc]ed?|spdx)\b|\(c\)/i;

/**
 * The description lines at the top of a read file's `content`: comment lines as written, docstring
 * lines without their quotes; none when the read starts further down the file.
 */
export function fileDescription(content: string): string[] {
  const lines = headLines(content, DESCRIPTION_HEAD_LINES);
  const first = lines.find((l) => l.trim().length > 0);
  const numbered = first === undefined ? undefined : READER_LINE_NUMBER.exec(first);
  if (numbered && Number(numbered[1]) !== 1) return [];
  const found: string[] = [];
  let quotes: string | undefined;
  for (const raw of lines) {
    if (found.length >= MAX_DESCRIPTION_LINES) break;
    const unnumbered = raw.replace(READER_LINE_NUMBER, '');
    const line = unnumbered.trim();
    const field = quotes === undefined ? DESCRIPTION_FIELD.exec(unnumbered) : null;
    let text: string | undefined;
    if (field !== null) text = field[1] ?? field[2] ?? field[3];
    else if (quotes !== undefined) {
      const end = line.indexOf(quotes);
      text = end < 0 ? line : line.slice(0, end);
      if (end >= 0) quotes = undefined;
    } else {
      const opened = DOCSTRING_OPEN.exec(line);
      if (opened) {
        const rest = line.slice(opened[0].length);
        const end = rest.indexOf(opened[1]);
        text = end < 0 ? rest : rest.slice(0, end);
        if (end < 0) quotes = opened[1];
      } else if (COMMENT.test(line)) {
        // A directive sits right against its marker (`//go:build`, `#-*- coding`); prose leaves a space.
        if (!/^(?:#+|\/\/+|\/\*+|\*+|--|;+|<!--|%+)(?:\s|$)/.test(line)) continue;
        text = line.replace(COMMENT_MARKERS, '');
        if (describes(text)) found.push(line);
        continue;
      }
    }
    if (text !== undefined && describes(text.trim())) found.push(text.trim());
  }
  return found;
}

/** True when a comment's text says something: a few words, not a licence's boilerplate, one line's length. */
function describes(text: string): boolean {
  return text.length <= MAX_DESCRIPTION_CHARS && (text.match(WORD)?.length ?? 0) >= MIN_DESCRIPTION_WORDS && !BOILERPLATE.test(text);
}
