/**
 * A binary min-heap of candidate merges for the heap-based byte-pair merge. An entry is a pair of
 * adjacent parts: the left part's start and the right part's end. Entries order by rank, then by
 * left position, which is exactly the leftmost-lowest-rank choice of js-tiktoken's merge loop.
 */

/** Left positions fit in 32 bits, so (rank, left) packs into one double without loss. */
const LEFT_SPAN = 2 ** 32;

export class PairHeap {
  private readonly keys: number[] = [];
  private readonly rights: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(rank: number, left: number, right: number): void {
    const keys = this.keys;
    const rights = this.rights;
    const key = rank * LEFT_SPAN + left;
    let at = keys.length;
    keys.push(key);
    rights.push(right);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[at] = keys[parent];
      rights[at] = rights[parent];
      at = parent;
    }
    keys[at] = key;
    rights[at] = right;
  }

  /**
   * Removes the lowest entry and returns its left position; its right end is then in
   * `lastRight`. Call only when `size > 0`.
   */
  pop(): number {
    const keys = this.keys;
    const rights = this.rights;
    const top = keys[0];
    this.lastRight = rights[0];
    const lastKey = keys.pop() as number;
    const lastRight = rights.pop() as number;
    const count = keys.length;
    if (count > 0) {
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= count) break;
        if (child + 1 < count && keys[child + 1] < keys[child]) child++;
        if (keys[child] >= lastKey) break;
        keys[at] = keys[child];
        rights[at] = rights[child];
        at = child;
      }
      keys[at] = lastKey;
      rights[at] = lastRight;
    }
    return top % LEFT_SPAN;
  }

  /** Right end of the entry the last `pop()` returned. */
  lastRight = 0;
}
