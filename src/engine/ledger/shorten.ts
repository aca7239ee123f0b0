/** Cutting text for one-line ledger entries. */

/** `text` cut to at most `max` characters, ending with an ellipsis when cut; never splits a surrogate pair. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}
