/** Shannon entropy of a string's characters, in bits per character: how random a candidate secret looks. */
export function entropyPerChar(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const c of counts.values()) {
    const p = c / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
