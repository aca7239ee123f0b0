/**
 * Distinctive terms of a command, a tool input or a sentence: paths, file names, identifiers,
 * code spans. Two pieces of text that share one are very likely about the same thing, which is
 * how a plan is matched with the call that carried it out and an error with what resolved it,
 * in any language and for any tool.
 */

/**
 * Most terms taken from one text.
 * @default 12 — a command line or a sentence rarely names more distinct things; bounds the work.
 */
export const MAX_TERMS = 12;

/** Characters that separate terms in commands and prose; `/`, `.`, `_`, `-` and `:` stay inside terms. */
const SEPARATORS = /[\s'"`;|&<>(){}[\],=*?!$]+/;
const CODE_SPAN = /`([^`\n]{2,80})`/g;
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const LETTER = /\p{L}/u;
const CAMEL = /\p{Ll}\p{Lu}/u;
const TRAILING_PUNCTUATION = /[.,:;]+$/;
const LEADING_DOTS = /^\.\//;

/**
 * The distinctive terms of `text`, lower case, each once, in order of appearance: the contents
 * of code spans (any length from 2), then tokens shaped like paths or identifiers (a separator,
 * a digit or camelCase) and the last segment of each path.
 */
export function termsOf(text: string, max = MAX_TERMS): string[] {
  const terms = new Set<string>();
  const add = (term: string) => {
    if (terms.size < max) terms.add(term.toLowerCase());
  };
  if (text.includes('`')) {
    for (const match of text.matchAll(CODE_SPAN)) {
      const span = match[1].trim();
      if (span.length >= 2 && !/\s/.test(span)) add(span);
    }
  }
  for (const raw of text.slice(0, 4000).split(SEPARATORS)) {
    if (terms.size >= max) break;
    if (raw.length < 3 || (raw.length < 12 && !isShaped(raw))) continue;
    const token = raw.replace(TRAILING_PUNCTUATION, '').replace(LEADING_DOTS, '');
    if (!isDistinctive(token)) continue;
    add(token);
    const base = token.slice(token.lastIndexOf('/') + 1);
    if (base !== token && isDistinctive(base)) add(base);
  }
  return [...terms];
}

/** Long enough, not a flag, and shaped like a name rather than a plain word. */
function isDistinctive(token: string): boolean {
  if (token.length < 3 || token.startsWith('-')) return false;
  if (token.length < 12 && !isShaped(token)) return false;
  let wordChars = 0;
  for (const ch of token) if (isWordChar(ch)) wordChars++;
  return wordChars >= 3 && LETTER.test(token);
}

/** Holds a separator (`/`, `.`, `_`, `:`, `-`), a digit, or a lower-case letter followed by a capital (camelCase). */
function isShaped(token: string): boolean {
  let ascii = true;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 47 || c === 46 || c === 95 || c === 58 || c === 45 || (c >= 48 && c <= 57)) return true;
    if (c >= 97 && c <= 122 && i + 1 < token.length) {
      const d = token.charCodeAt(i + 1);
      if (d >= 65 && d <= 90) return true;
    }
    if (c >= 0x80) ascii = false;
  }
  return !ascii && CAMEL.test(token);
}

/** A letter, a digit or `_`; ASCII answered without a regular expression. */
function isWordChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return WORD_CHAR.test(ch);
}

/** True when `term` occurs in `haystack` (both lower case) as a whole: no word character right before or after it. */
export function containsTerm(haystack: string, term: string): boolean {
  for (let at = haystack.indexOf(term); at >= 0; at = haystack.indexOf(term, at + 1)) {
    const before = at > 0 ? haystack[at - 1] : ' ';
    const after = at + term.length < haystack.length ? haystack[at + term.length] : ' ';
    if (!isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}

/** The string values of a tool input, joined, lower case, at most `maxChars`: what a call names. */
export function inputValues(input: Readonly<Record<string, unknown>>, maxChars = 4000): string {
  const out: string[] = [];
  let size = 0;
  const visit = (value: unknown, depth: number) => {
    if (size >= maxChars || depth > 3) return;
    if (typeof value === 'string') {
      const piece = value.slice(0, maxChars - size);
      out.push(piece);
      size += piece.length + 1;
    } else if (Array.isArray(value)) value.forEach((v) => visit(v, depth + 1));
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach((v) => visit(v, depth + 1));
  };
  visit(input, 0);
  return out.join('\n').toLowerCase();
}
