import type { RankTable } from './rankData';

/**
 * Byte-pair merging for short pieces: repeatedly merge the adjacent pair with the lowest rank,
 * the leftmost one on ties, exactly as js-tiktoken's `bytePairMerge` does. Quadratic, but with a
 * small constant: each step scans an array of numbers and looks up at most two new pairs.
 *
 * @param bytes the piece's UTF-8 bytes as a binary string, at least two long
 * @returns how many tokens the piece encodes to
 */
export function countTokensByLoop(bytes: string, ranks: RankTable): number {
  const length = bytes.length;
  // starts[i] is where part i begins; the extra last entry is the end of the piece.
  const starts: number[] = [];
  for (let i = 0; i <= length; i++) starts.push(i);
  // pairRanks[i] is the rank of parts i and i+1 merged, Infinity when that is no token.
  const pairRanks: number[] = [];
  for (let i = 0; i < length - 1; i++) pairRanks.push(ranks.get(bytes.slice(i, i + 2)) ?? Infinity);

  let parts = length;
  while (parts > 1) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (pairRanks[i] < best) {
        best = pairRanks[i];
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    parts--;
    if (at < parts - 1) pairRanks[at] = ranks.get(bytes.slice(starts[at], starts[at + 2])) ?? Infinity;
    if (at > 0) pairRanks[at - 1] = ranks.get(bytes.slice(starts[at - 1], starts[at + 1])) ?? Infinity;
  }
  return parts;
}
