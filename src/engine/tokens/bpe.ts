import { countTokensByHeap } from './mergeHeap';
import { countTokensByLoop } from './mergeLoop';
import { buildRankTable, type RankData, type RankTable } from './rankData';
import { utf8Binary } from './utf8Binary';

/**
 * Exact BPE token counting from js-tiktoken's rank data, with the same results as
 * `new Tiktoken(ranks).encode(text, [], []).length`, built in a fraction of the time and
 * safe on pathological input.
 *
 * Special-token text such as "<|endoftext|>" counts as ordinary text, as it does in `encode`
 * with no special tokens allowed or disallowed: counting must never throw on user content.
 */

/**
 * Pieces up to this many bytes merge with the simple loop; longer ones use the heap, whose
 * O(n log n) bookkeeping only pays off once the loop's quadratic scan gets long.
 */
const LOOP_MAX_BYTES = 64;

/**
 * Longer pieces are not cached: they seldom repeat, and with the entry limit this bounds the
 * cache's memory (200,000 × 64 chars at worst, a few MB in practice).
 */
const MAX_CACHED_PIECE_CHARS = 64;

/** Options for {@link BpeTokenCounter}. */
export interface BpeCounterOptions {
  /**
   * Distinct pieces whose counts are remembered. Words repeat across a conversation, so most
   * pieces are counted once; past the limit the cache starts over, which bounds memory.
   * @default 200_000
   */
  readonly maxCachedPieces?: number;
}

/** Counts tokens for one encoding. Building it decodes the whole rank table (about 100 ms). */
export class BpeTokenCounter {
  private readonly ranks: RankTable;
  /** Matches a piece exactly where the previous one ended: the fast path, no match array. */
  private readonly piecePattern: RegExp;
  /** Searches ahead for the next piece when none starts right there, as `encode` would. */
  private readonly searchPattern: RegExp;
  private readonly encoder = new TextEncoder();
  private readonly pieceCounts = new Map<string, number>();
  private readonly maxCachedPieces: number;

  constructor(data: RankData, options: BpeCounterOptions = {}) {
    this.ranks = buildRankTable(data);
    this.piecePattern = new RegExp(data.pat_str, 'uy');
    this.searchPattern = new RegExp(data.pat_str, 'gu');
    this.maxCachedPieces = options.maxCachedPieces ?? 200_000;
  }

  /**
   * How many tokens `text` encodes to. Splits it into pieces as js-tiktoken does (every piece
   * where the last one ended, with the same regex) and sums their counts.
   */
  count(text: string): number {
    const piecePattern = this.piecePattern;
    let total = 0;
    let at = 0;
    while (at < text.length) {
      let start = at;
      let end: number;
      piecePattern.lastIndex = at;
      if (piecePattern.test(text)) {
        end = piecePattern.lastIndex;
      } else {
        // The encodings' patterns match at every position, so this is only a safety net.
        this.searchPattern.lastIndex = at;
        const found = this.searchPattern.exec(text);
        if (found === null) break;
        start = found.index;
        end = start + found[0].length;
      }
      if (end === start) {
        // Nor do they match empty; an empty piece would have no tokens, and must not stall us.
        at = end + 1;
        continue;
      }
      total += this.countPiece(text.slice(start, end));
      at = end;
    }
    return total;
  }

  /** How many pieces are cached now (for tests and diagnostics). */
  get cachedPieces(): number {
    return this.pieceCounts.size;
  }

  private countPiece(piece: string): number {
    const cached = this.pieceCounts.get(piece);
    if (cached !== undefined) return cached;
    const bytes = utf8Binary(piece, this.encoder);
    let count: number;
    if (bytes.length === 1 || this.ranks.has(bytes)) count = 1;
    else if (bytes.length <= LOOP_MAX_BYTES) count = countTokensByLoop(bytes, this.ranks);
    else count = countTokensByHeap(bytes, this.ranks);
    if (piece.length <= MAX_CACHED_PIECE_CHARS) {
      if (this.pieceCounts.size >= this.maxCachedPieces) this.pieceCounts.clear();
      this.pieceCounts.set(detach(piece), count);
    }
    return count;
  }
}

/**
 * A copy of a piece that does not keep the text it was cut from alive. V8 represents a slice of
 * 13 or more characters as a view into its parent, so caching the slice would pin a whole
 * multi-megabyte tool output in memory. Slicing a concatenation flattens it into a new string
 * first, and the result is a view into that small copy instead.
 */
function detach(piece: string): string {
  return (' ' + piece).slice(1);
}
