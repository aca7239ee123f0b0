/**
 * How many passages each indexed term occurs in, so a search for verbatim text can keep to the
 * words that tell passages apart. A word found in a large share of the passages adds almost
 * nothing to a passage's score, yet costs the most to look up: every passage holding it is read.
 */

/** Query words a verbatim search keeps, the rarest; enough to place a sentence, few enough to stay quick. */
export const RARE_QUERY_TERMS = 6;
/** A word in more than this share of the passages is too common to tell them apart. */
export const COMMON_TERM_SHARE = 0.05;
/**
 * …or in more than this many passages, however large the session: a top three among more
 * passages than this is decided by the other words, and reading them all is what would make
 * a long session's searches slow.
 */
export const COMMON_TERM_PASSAGES = 400;

export class TermRarity {
  private readonly passagesWith = new Map<string, number>();

  /**
   * Counts one passage's distinct terms. A passage forgotten later is not taken off: the counts
   * only ever grow, so a term may read as a little commoner than it is.
   */
  countPassage(terms: ReadonlySet<string>): void {
    for (const term of terms) this.passagesWith.set(term, (this.passagesWith.get(term) ?? 0) + 1);
  }

  /**
   * The query's rarest distinct terms that occur at all, at most `RARE_QUERY_TERMS` of them,
   * leaving out those in more than `COMMON_TERM_SHARE` of `passages` or in more than
   * `COMMON_TERM_PASSAGES` unless nothing else is left (then the single rarest one, if it is in
   * `COMMON_TERM_PASSAGES` or fewer). Empty when no term of the query is indexed, or none is
   * rare enough for a search to tell its passage apart.
   */
  rarest(terms: Iterable<string>, passages: number): string[] {
    const known = [...new Set(terms)].flatMap((term) => {
      const count = this.passagesWith.get(term) ?? 0;
      return count > 0 ? [{ term, count }] : [];
    });
    known.sort((a, b) => a.count - b.count || (a.term < b.term ? -1 : 1));
    const common = Math.max(1, Math.min(passages * COMMON_TERM_SHARE, COMMON_TERM_PASSAGES));
    const distinctive = known.filter((k) => k.count <= common);
    // With no distinctive word, the rarest one still places the text in a small session; where it fills hundreds of passages, nothing can.
    const fallback = known.slice(0, 1).filter((k) => k.count <= COMMON_TERM_PASSAGES);
    return (distinctive.length > 0 ? distinctive : fallback).slice(0, RARE_QUERY_TERMS).map((k) => k.term);
  }
}
