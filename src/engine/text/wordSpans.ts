/**
 * The whole words of a text (runs of letters, digits and `_`) by where they start and end, as
 * `text.matchAll(/[\p{L}\p{N}_]+/gu)` finds them, without making a match object for each word: the
 * earlier lines' pool is read word by word at every change, and in a large window those objects were
 * most of what a request allocated.
 */

/** A letter or digit past ASCII (one character, or a surrogate pair). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Calls `each` with the start and the end (exclusive) of every whole word of `text`, in order. */
export function forEachWord(text: string, each: (start: number, end: number) => void): void {
  let start = -1;
  for (let i = 0; i < text.length;) {
    const width = wordCharWidth(text, i);
    if (width > 0) {
      if (start < 0) start = i;
      i += width;
      continue;
    }
    if (start >= 0) each(start, i);
    start = -1;
    i++;
  }
  if (start >= 0) each(start, text.length);
}

/** How many UTF-16 units the word character at `i` takes: 0 when it is no word character. */
function wordCharWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f ? 1 : 0;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) return WORD_CHAR.test(text.slice(i, i + 2)) ? 2 : 0;
  return WORD_CHAR.test(text[i]) ? 1 : 0;
}
