/**
 * Which of many keywords occur in a text, found in one pass and ignoring case (an Aho–Corasick automaton, as
 * gitleaks prefilters its rules): the secret rules run only where one of their keywords is, and looking for three
 * hundred keywords one by one would read a long tool result three hundred times.
 *
 * The automaton is a table: one row per state, one column per character that occurs in a keyword (any other
 * character leads back to the start, since no keyword holds it), so a character costs one lookup.
 */
export class KeywordScan {
  /** Column of each ASCII character (upper case folded to lower); 0: in no keyword. */
  private readonly column = new Uint8Array(128);
  private readonly width: number;
  /** `next[state * width + column]`: the state after reading that character. */
  private readonly next: Uint32Array;
  /** Per state, the keywords (by index) that end there, its suffixes' included; empty for most. */
  private readonly ends: (readonly number[])[];

  constructor(keywords: readonly string[]) {
    const chars = [...new Set(keywords.join(''))].sort();
    if (chars.some((c) => c.charCodeAt(0) > 127 || c !== c.toLowerCase())) throw new Error('keywords are lower-case ASCII');
    chars.forEach((c, i) => (this.column[c.charCodeAt(0)] = i + 1));
    for (let c = 65; c <= 90; c++) this.column[c] = this.column[c + 32];
    this.width = chars.length + 1;
    const trie = buildTrie(keywords, (c) => this.column[c]);
    this.ends = trie.ends;
    this.next = this.table(trie.children);
  }

  /** The indexes of the keywords that occur in `text`, whatever their case there. */
  found(text: string): Set<number> {
    const seen = new Set<number>();
    this.walk(text, (ends) => {
      for (const k of ends) seen.add(k);
      return false;
    });
    return seen;
  }

  /** True when any keyword occurs in `text`; stops at the first. */
  any(text: string): boolean {
    return this.walk(text, () => true);
  }

  /** Reads `text`, calling `onEnds` where keywords end; stops when it returns true (and returns true then). */
  private walk(text: string, onEnds: (ends: readonly number[]) => boolean): boolean {
    const { column, next, width, ends } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      state = next[state * width + (c < 128 ? column[c] : 0)];
      if (ends[state].length > 0 && onEnds(ends[state])) return true;
    }
    return false;
  }

  /** The full transition table, breadth first: a missing edge goes where the state's longest suffix's would. */
  private table(children: readonly Map<number, number>[]): Uint32Array {
    const { width } = this;
    const next = new Uint32Array(children.length * width);
    const fail = new Uint32Array(children.length);
    const queue: number[] = [];
    for (const [col, to] of children[0]) {
      next[col] = to;
      queue.push(to);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (let col = 1; col < width; col++) {
        const to = children[state].get(col);
        if (to === undefined) {
          next[state * width + col] = next[fail[state] * width + col];
          continue;
        }
        next[state * width + col] = to;
        fail[to] = next[fail[state] * width + col];
        this.ends[to] = [...this.ends[to], ...this.ends[fail[to]]];
        queue.push(to);
      }
    }
    return next;
  }
}

/** The keywords as a tree of their prefixes: per state its children by column, and the keywords ending there. */
function buildTrie(keywords: readonly string[], columnOf: (c: number) => number): { children: Map<number, number>[]; ends: number[][] } {
  const children: Map<number, number>[] = [new Map()];
  const ends: number[][] = [[]];
  keywords.forEach((keyword, index) => {
    let state = 0;
    for (let i = 0; i < keyword.length; i++) {
      const col = columnOf(keyword.charCodeAt(i));
      let to = children[state].get(col);
      if (to === undefined) {
        to = children.length;
        children.push(new Map());
        ends.push([]);
        children[state].set(col, to);
      }
      state = to;
    }
    ends[state].push(index);
  });
  return { children, ends };
}
