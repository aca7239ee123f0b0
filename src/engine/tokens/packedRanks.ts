/**
 * The rank table as typed arrays outside the JavaScript heap: every token's bytes in one pool, its rank, and an
 * open-addressing hash of slots. As a `Map` of 200,000 strings the table was some 12 MB of heap that every full
 * collection walks, and the heap's next limit is a multiple of what a collection leaves alive; here it is about
 * 5 MB the collector never looks into. Keys are binary strings (one char per byte), as the counters look them up.
 */
import { fnv1a } from '../text/fnv';

/** FNV-1a over a binary string's char codes. */
function hashOf(key: string): number {
  return fnv1a(key) >>> 0;
}

/** Token bytes (as a binary string) to rank, packed. */
export class PackedRankTable {
  private readonly pool: Uint8Array;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  private readonly ranks: Int32Array;
  /** Entry number + 1 by slot; 0 is an empty slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** Packs these tokens (binary strings) with their ranks. */
  constructor(tokens: readonly (readonly [string, number])[]) {
    let bytes = 0;
    for (const [token] of tokens) bytes += token.length;
    this.pool = new Uint8Array(bytes);
    this.starts = new Int32Array(tokens.length);
    this.lengths = new Int32Array(tokens.length);
    this.ranks = new Int32Array(tokens.length);
    // At most half full, so a lookup of a missing key (most pairs tried while merging) ends in a probe or two.
    let size = 1;
    while (size < tokens.length * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    let at = 0;
    tokens.forEach(([token, rank], entry) => {
      this.starts[entry] = at;
      this.lengths[entry] = token.length;
      this.ranks[entry] = rank;
      for (let i = 0; i < token.length; i++) this.pool[at++] = token.charCodeAt(i);
      let slot = hashOf(token) & this.mask;
      // A token given twice takes its last rank, as a Map filled in the same order would.
      while (this.slots[slot] !== 0 && !this.matches(this.slots[slot] - 1, token)) slot = (slot + 1) & this.mask;
      this.slots[slot] = entry + 1;
    });
  }

  /** The rank of these token bytes, or undefined when they are no token. */
  get(key: string): number | undefined {
    for (let slot = hashOf(key) & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot];
      if (entry === 0) return undefined;
      if (this.matches(entry - 1, key)) return this.ranks[entry - 1];
    }
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  private matches(entry: number, key: string): boolean {
    if (this.lengths[entry] !== key.length) return false;
    const start = this.starts[entry];
    for (let i = 0; i < key.length; i++) if (this.pool[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }
}
