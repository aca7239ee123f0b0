/**
 * Slice bounds that never cut a surrogate pair in two (an emoji, a rare CJK character): half a pair
 * is not text, and would reach the model as a replacement character. Narrowing moves a bound
 * inwards (the slice loses the whole character), widening moves it outwards (the slice keeps it).
 */

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** `end` moved back by one when the slice `[…, end)` would end between the halves of a pair. */
export function narrowEnd(text: string, end: number): number {
  return end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

/** `start` moved forward by one when the slice `[start, …)` would start between the halves of a pair. */
export function narrowStart(text: string, start: number): number {
  return start < text.length && isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
}

/** `end` moved forward by one when the slice `[…, end)` would end between the halves of a pair. */
export function widenEnd(text: string, end: number): number {
  return end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) ? end + 1 : end;
}

/** `start` moved back by one when the slice `[start, …)` would start between the halves of a pair. */
export function widenStart(text: string, start: number): number {
  return start > 0 && isLowSurrogate(text.charCodeAt(start)) ? start - 1 : start;
}
