/**
 * Fact keys and how they are matched. A key is a verbatim piece of its source, cut at a word
 * boundary to stay short; matching ignores what a summary or a renderer may change without
 * changing the words: runs of white space, case, Markdown emphasis and code ticks.
 */

/**
 * Longest key, in characters.
 * @default 100 — long enough to be distinctive (a sentence's start, an error line, a path), short
 * enough that a summary quoting the fact keeps all of it.
 */
export const MAX_KEY_CHARS = 100;

/** Shortest key worth looking for: shorter strings match by accident. @default 4 */
export const MIN_KEY_CHARS = 4;

/** Characters a Markdown renderer or a summary adds or drops around words. */
const MARKUP = /\*\*|__|`/g;
const TRAILING_JOINERS = /[\s,;:(–—-]+$/;
/** Where a word ends before a space or a sentence's punctuation (not inside a path such as `a.b`). */
const WORD_END = /^[\p{L}\p{N}_`'’)\]](?:\s|[,;:!?)]|\.(?:\s|$))/u;

/** The text as matching sees it: markup dropped, white space collapsed, lower case. */
export function matchForm(text: string): string {
  // Keys are short and usually plain: skip the replacements that would change nothing.
  const plain = text.includes('**') || text.includes('__') || text.includes('`') ? text.replace(MARKUP, '') : text;
  const spaced = /\s\s|[\t\n\r\f\v\u00a0]/.test(plain) ? plain.replace(/\s+/g, ' ') : plain;
  return spaced.trim().toLowerCase();
}

/**
 * A verbatim key from `text`: on one line, cut at the last word boundary within `maxChars`, no
 * dangling joiner at the end. Undefined when what is left is shorter than {@link MIN_KEY_CHARS}.
 */
export function keyOf(text: string, maxChars = MAX_KEY_CHARS): string | undefined {
  let key = /\s\s|[\t\n\r]/.test(text) ? text.replace(/\s+/g, ' ').trim() : text.trim();
  if (key.length > maxChars) {
    // A word that ends exactly at the limit (the next character is not part of a word) stays whole.
    const end = WORD_END.test(key.slice(maxChars - 1, maxChars + 2)) ? maxChars : key.lastIndexOf(' ', maxChars);
    key = (end >= maxChars / 2 ? key.slice(0, end) : key.slice(0, maxChars)).replace(TRAILING_JOINERS, '');
  }
  return key.length >= MIN_KEY_CHARS ? key : undefined;
}

/** True when `haystack` (already in match form) holds the key. */
export function holdsKey(haystackMatchForm: string, key: string): boolean {
  const wanted = matchForm(key);
  return wanted.length > 0 && haystackMatchForm.includes(wanted);
}

/**
 * A key for a name without spaces (a path, a URL, an id): the whole name when it is short enough,
 * else its end from a `/` within `maxChars`, since a path's end is what tells it apart.
 */
export function nameKeyOf(name: string, maxChars = MAX_KEY_CHARS): string | undefined {
  const key = name.trim();
  if (key.length <= maxChars || /\s/.test(key)) return keyOf(key, maxChars);
  const tail = key.slice(-maxChars);
  const slash = tail.indexOf('/');
  const cut = slash >= 0 && slash < maxChars / 2 ? tail.slice(slash + 1) : tail;
  return cut.length >= MIN_KEY_CHARS ? cut : undefined;
}
