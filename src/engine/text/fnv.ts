/** FNV-1a's 32-bit offset basis: where a hash starts. */
export const FNV_OFFSET_BASIS = 0x811c9dc5;

/**
 * FNV-1a over the char codes of `text` from `start` to `end`, continuing from `hash` (a signed 32-bit
 * value; `>>> 0` makes it unsigned). Fast and allocation-free: for keys and fingerprints, never for security.
 */
export function fnv1a(text: string, hash = FNV_OFFSET_BASIS, start = 0, end = text.length): number {
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}
