/**
 * The passages one term occurs in, within one field, with how often it occurs in each: pairs of
 * numbers in one typed array. A search index of a long session holds about a million of these
 * pairs; as entries of a `Map` each costs some 37 bytes of the JavaScript heap, here 8 bytes
 * outside it, and the collector has nothing to walk.
 */

/** Room for two passages at first: most terms of a large vocabulary (ids, hashes) occur once or twice. */
const INITIAL_PAIRS = 2;

export class PostingList {
  /** Passage id and term frequency, interleaved; ids ascend, as passages are added in id order. */
  private pairs = new Int32Array(INITIAL_PAIRS * 2);
  private count = 0;
  /** How many passages the index had discarded when this list was last rid of them. */
  sweptAt = 0;

  /** Passages in the list. */
  get size(): number {
    return this.count;
  }

  /** Counts one occurrence in passage `id`: the passage being added is always the last one. */
  addOccurrence(id: number): void {
    const last = (this.count - 1) * 2;
    if (this.count > 0 && this.pairs[last] === id) {
      this.pairs[last + 1]++;
      return;
    }
    if (this.count * 2 === this.pairs.length) this.grow();
    this.pairs[this.count * 2] = id;
    this.pairs[this.count * 2 + 1] = 1;
    this.count++;
  }

  /** Passage id of the `i`th entry. */
  idAt(i: number): number {
    return this.pairs[i * 2];
  }

  /** Term frequency of the `i`th entry. */
  frequencyAt(i: number): number {
    return this.pairs[i * 2 + 1];
  }

  /** Drops the entries whose passage `keep` rejects, keeping the order; returns how many went. */
  retain(keep: (id: number) => boolean): number {
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const id = this.pairs[i * 2];
      if (!keep(id)) continue;
      this.pairs[kept * 2] = id;
      this.pairs[kept * 2 + 1] = this.pairs[i * 2 + 1];
      kept++;
    }
    const dropped = this.count - kept;
    this.count = kept;
    return dropped;
  }

  private grow(): void {
    // Half as much again: a list of a common term ends less than a third empty, not half.
    const next = new Int32Array(Math.max(INITIAL_PAIRS * 2, Math.ceil((this.pairs.length * 1.5) / 2) * 2));
    next.set(this.pairs);
    this.pairs = next;
  }
}
