/**
 * The passages one term occurs in, within one field, with how often it occurs in each. A search index of a long
 * session holds about a million of these pairs; as entries of a `Map` each costs some 37 bytes of the JavaScript
 * heap, as two integers of a typed array 8 bytes. Here each is the gap from the passage before it and the count,
 * in variable-length bytes outside the heap: ids ascend, and the gaps of a common term and most counts take a
 * byte each, so a pair is about two bytes. The last pair stays open while its passage is being added, and a term
 * found in one passage only (most of a large vocabulary: ids, hashes) needs no bytes at all.
 */

/** Room in bytes when a term meets its second passage. */
const INITIAL_BYTES = 8;
/** Bits of a number each byte holds; the high bit says another byte follows. */
const BITS = 7;
const LOW = 0x7f;
const MORE = 0x80;

export class PostingList {
  /** The closed pairs: gap from the previous passage id, then the count, each as variable-length bytes. */
  private bytes: Uint8Array | undefined;
  private used = 0;
  /** Pairs in the list, the open one included. */
  private count = 0;
  /** The passage id of the last closed pair: the next gap starts from it. */
  private closedId = 0;
  /** The open pair: the last passage added and its count so far. */
  private openId = 0;
  private openFrequency = 0;
  /** How many passages the index had discarded when this list was last rid of them. */
  sweptAt = 0;

  /** Passages in the list. */
  get size(): number {
    return this.count;
  }

  /** Counts one occurrence in passage `id`: the passage being added is always the last one. */
  addOccurrence(id: number): void {
    if (this.count > 0 && this.openId === id) {
      this.openFrequency++;
      return;
    }
    if (this.count > 0) this.close();
    this.openId = id;
    this.openFrequency = 1;
    this.count++;
  }

  /** Calls `each` with every passage id and the term's count in it, in ascending id order. */
  forEach(each: (id: number, frequency: number) => void): void {
    if (this.count === 0) return;
    const bytes = this.bytes;
    let at = 0;
    let id = 0;
    while (bytes !== undefined && at < this.used) {
      let gap = 0;
      let shift = 0;
      for (;;) {
        const byte = bytes[at++];
        gap += (byte & LOW) * 2 ** shift;
        shift += BITS;
        if ((byte & MORE) === 0) break;
      }
      let frequency = 0;
      shift = 0;
      for (;;) {
        const byte = bytes[at++];
        frequency += (byte & LOW) * 2 ** shift;
        shift += BITS;
        if ((byte & MORE) === 0) break;
      }
      id += gap;
      each(id, frequency);
    }
    each(this.openId, this.openFrequency);
  }

  /** Drops the entries whose passage `keep` rejects, keeping the order; returns how many went. */
  retain(keep: (id: number) => boolean): number {
    const kept: [number, number][] = [];
    this.forEach((id, frequency) => {
      if (keep(id)) kept.push([id, frequency]);
    });
    const dropped = this.count - kept.length;
    if (dropped === 0) return 0;
    this.bytes = undefined;
    this.used = 0;
    this.count = 0;
    this.closedId = 0;
    for (const [id, frequency] of kept) {
      this.addOccurrence(id);
      this.openFrequency = frequency;
    }
    return dropped;
  }

  /** Writes the open pair into the bytes. */
  private close(): void {
    this.write(this.openId - this.closedId);
    this.write(this.openFrequency);
    this.closedId = this.openId;
  }

  private write(value: number): void {
    // A number of up to 32 bits takes at most five bytes.
    if (this.bytes === undefined || this.used + 5 > this.bytes.length) this.grow();
    const bytes = this.bytes as Uint8Array;
    let rest = value;
    while (rest > LOW) {
      bytes[this.used++] = (rest & LOW) | MORE;
      rest = Math.floor(rest / (LOW + 1));
    }
    bytes[this.used++] = rest;
  }

  private grow(): void {
    // Half as much again: a list of a common term ends less than a third empty, not half.
    const next = new Uint8Array(Math.max(INITIAL_BYTES, Math.ceil((this.bytes?.length ?? 0) * 1.5)));
    if (this.bytes) next.set(this.bytes.subarray(0, this.used));
    this.bytes = next;
  }
}
