import { PairHeap } from './pairHeap';
import type { RankTable } from './rankData';

/**
 * Byte-pair merging for long pieces in O(n log n): candidate pairs wait in a heap ordered by
 * (rank, left position), so each step takes the same pair js-tiktoken's quadratic loop would.
 * Merging never splits a part, so a popped entry is stale exactly when its left part is gone
 * or its right neighbour has grown; such entries are skipped.
 *
 * @param bytes the piece's UTF-8 bytes as a binary string, at least two long
 * @returns how many tokens the piece encodes to
 */
export function countTokensByHeap(bytes: string, ranks: RankTable): number {
  const length = bytes.length;
  // Parts form a linked list by start position; next[start] is the start of the following part
  // (the piece's length after the last one).
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  const alive = new Uint8Array(length).fill(1);
  const heap = new PairHeap();
  for (let i = 0; i < length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  for (let i = 0; i + 1 < length; i++) {
    const rank = ranks.get(bytes.slice(i, i + 2));
    if (rank !== undefined) heap.push(rank, i, i + 2);
  }

  let parts = length;
  while (heap.size > 0) {
    const left = heap.pop();
    const right = heap.lastRight;
    if (alive[left] === 0) continue;
    const middle = next[left];
    if (middle >= length || next[middle] !== right) continue;

    alive[middle] = 0;
    next[left] = right;
    if (right < length) previous[right] = left;
    parts--;

    if (left > 0) {
      const before = previous[left];
      const rank = ranks.get(bytes.slice(before, right));
      if (rank !== undefined) heap.push(rank, before, right);
    }
    if (right < length) {
      const after = next[right];
      const rank = ranks.get(bytes.slice(left, after));
      if (rank !== undefined) heap.push(rank, left, after);
    }
  }
  return parts;
}
