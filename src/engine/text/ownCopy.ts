/**
 * A string's characters in a string of their own. A slice of a longer string (what `split`,
 * `slice` and `substring` return past a few characters) keeps the whole longer string alive: a
 * cache keyed by lines of a text that is gone would keep every such text. A copy costs only its
 * own characters.
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
