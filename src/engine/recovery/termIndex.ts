/**
 * The inverted index behind recovery search: for each term, the passages it occurs in per field,
 * scored with BM25+ and found by exact, prefix and fuzzy match as MiniSearch does (same
 * parameters, weights and combination). What differs is the storage: MiniSearch keeps a `Map`
 * per term and field with an entry per passage, about 37 bytes of heap a posting; here a posting
 * is about two bytes of a typed array (postingList.ts) and a passage's field lengths are columns of
 * integers, so a session of ten thousand messages indexes in a fraction of the memory.
 */
import SearchableMap from 'minisearch/SearchableMap';
import { IntColumn } from './intColumn';
import { PostingList } from './postingList';

/** BM25+ as MiniSearch has it: term saturation, length normalization and the floor of a matching term. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** A prefix or fuzzy match counts for less than the term itself (MiniSearch's weights). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** How one field of the passages is indexed and weighed. */
export interface TermField {
  readonly name: string;
  readonly boost: number;
}

/** How a query's terms may match the index's. */
export interface TermMatching {
  /** Whether a term also matches the longer terms it begins. */
  readonly prefix: (term: string) => boolean;
  /** Edits allowed as a share of the term's length, or false for none. */
  readonly fuzzy: (term: string) => number | false;
  /** Edits allowed at most, whatever the term's length. */
  readonly maxFuzzy: number;
}

/** One passage found: its id, its score, and the index's terms it matched. */
export interface TermMatch {
  readonly id: number;
  readonly score: number;
  readonly terms: readonly string[];
}

/** A passage's running score while a query is evaluated. */
interface Tally {
  score: number;
  /** Query terms matched: a passage matching more of them is multiplied by their number. */
  readonly queryTerms: string[];
  /** Index terms matched (prefix and fuzzy matches included), for the excerpt. */
  readonly matched: string[];
}

export class TermIndex {
  /** Term → its posting list per field (by field position). */
  private readonly terms = new SearchableMap<(PostingList | undefined)[]>();
  /** Distinct terms of each field of each passage, by field position: BM25's field length. */
  private readonly fieldLengths: IntColumn[];
  /**
   * Average field lengths, kept as MiniSearch keeps them (a running mean, not a sum divided): the
   * same arithmetic gives the same scores to the last bit, so ties between passages break alike.
   */
  private readonly averageFieldLength: number[];
  /** 1 for a passage in the index, 0 once discarded (its postings go the next time a search reads them). */
  private readonly present = new IntColumn();
  private passages = 0;
  /** Passages discarded so far: a list swept at a smaller count may still hold some of them. */
  private discards = 0;

  constructor(
    private readonly fields: readonly TermField[],
    private readonly tokenize: (text: string) => string[],
    private readonly processTerm: (term: string) => string | null,
    private readonly matching: TermMatching,
  ) {
    this.fieldLengths = fields.map(() => new IntColumn());
    this.averageFieldLength = fields.map(() => 0);
  }

  /** Passages in the index. */
  get size(): number {
    return this.passages;
  }

  /**
   * Indexes passage `id` (larger than any id added before) with one text per field; returns the
   * distinct processed terms it holds over all fields.
   */
  add(id: number, texts: readonly string[]): Set<string> {
    const distinct = new Set<string>();
    this.fields.forEach((_, field) => {
      const tokens = this.tokenize(texts[field] ?? '');
      const length = new Set(tokens).size;
      this.fieldLengths[field].set(id, length);
      this.averageFieldLength[field] = (this.averageFieldLength[field] * this.passages + length) / (this.passages + 1);
      for (const token of tokens) {
        const term = this.processTerm(token);
        if (term === null || term === '') continue;
        distinct.add(term);
        this.postings(term, field).addOccurrence(id);
      }
    });
    this.present.set(id, 1);
    this.passages++;
    return distinct;
  }

  /** Takes passage `id` out of every search from now on. */
  discard(id: number): void {
    if (this.present.get(id) !== 1) return;
    this.present.set(id, 0);
    this.fields.forEach((_, field) => {
      const average = this.averageFieldLength[field];
      const count = this.passages;
      this.averageFieldLength[field] = count === 1 ? 0 : (average * count - this.fieldLengths[field].get(id)) / (count - 1);
    });
    this.passages--;
    this.discards++;
  }

  /**
   * The passages matching any of the query's terms, best first. Each query term scores its exact
   * match, then (when `matching` allows) the longer terms it begins and the terms a few edits away.
   */
  search(query: string, matching: Partial<TermMatching>, keep: (id: number) => boolean): TermMatch[] {
    const options = { ...this.matching, ...matching };
    const tallies = new Map<number, Tally>();
    for (const token of this.tokenize(query)) {
      const term = this.processTerm(token);
      if (term === null || term === '') continue;
      // Each query term is scored on its own, then added to the total: MiniSearch's order of additions.
      const termTallies = new Map<number, Tally>();
      this.searchTerm(term, options, termTallies);
      for (const [id, tally] of termTallies) {
        const total = tallies.get(id);
        if (total === undefined) {
          tallies.set(id, tally);
          continue;
        }
        total.score += tally.score;
        for (const t of tally.queryTerms) if (!total.queryTerms.includes(t)) total.queryTerms.push(t);
        for (const t of tally.matched) if (!total.matched.includes(t)) total.matched.push(t);
      }
    }
    const results: TermMatch[] = [];
    for (const [id, tally] of tallies) {
      if (keep(id)) results.push({ id, score: tally.score * (tally.queryTerms.length || 1), terms: tally.matched });
    }
    return results.sort((a, b) => b.score - a.score);
  }

  private searchTerm(term: string, options: TermMatching, tallies: Map<number, Tally>): void {
    this.score(term, term, 1, this.terms.get(term), tallies);
    const prefixMatches = options.prefix(term) ? this.terms.atPrefix(term) : undefined;
    const fuzzy = options.fuzzy(term);
    const maxDistance = fuzzy === false ? 0 : Math.min(options.maxFuzzy, Math.round(term.length * fuzzy));
    const fuzzyMatches = maxDistance > 0 ? this.terms.fuzzyGet(term, maxDistance) : undefined;
    if (prefixMatches) {
      for (const [found, lists] of prefixMatches) {
        const distance = found.length - term.length;
        if (distance === 0) continue;
        // A term that is both a prefix and a fuzzy match is scored as a prefix match only.
        fuzzyMatches?.delete(found);
        this.score(term, found, (PREFIX_WEIGHT * found.length) / (found.length + 0.3 * distance), lists, tallies);
      }
    }
    if (fuzzyMatches) {
      for (const [found, [lists, distance]] of fuzzyMatches) {
        if (distance === 0) continue;
        this.score(term, found, (FUZZY_WEIGHT * found.length) / (found.length + distance), lists, tallies);
      }
    }
  }

  /** Adds the BM25+ score of index term `found` (matched by query term `term`) to every passage holding it. */
  private score(
    term: string,
    found: string,
    weight: number,
    lists: (PostingList | undefined)[] | undefined,
    tallies: Map<number, Tally>,
  ): void {
    if (lists === undefined) return;
    this.fields.forEach((field, position) => {
      const list = lists[position];
      if (list === undefined) return;
      if (list.sweptAt !== this.discards) {
        list.retain((id) => this.present.get(id) === 1);
        list.sweptAt = this.discards;
      }
      const matching = list.size;
      if (matching === 0) return;
      const average = this.averageFieldLength[position];
      const idf = Math.log(1 + (this.passages - matching + 0.5) / (matching + 0.5));
      list.forEach((id, frequency) => {
        const length = this.fieldLengths[position].get(id);
        const saturation = (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / average));
        const points = weight * field.boost * (idf * (BM25.d + saturation));
        const tally = tallies.get(id);
        if (tally === undefined) {
          tallies.set(id, { score: points, queryTerms: [term], matched: [found] });
          return;
        }
        tally.score += points;
        if (!tally.queryTerms.includes(term)) tally.queryTerms.push(term);
        if (!tally.matched.includes(found)) tally.matched.push(found);
      });
    });
  }

  private postings(term: string, field: number): PostingList {
    let lists = this.terms.get(term);
    if (lists === undefined) {
      lists = [];
      this.terms.set(term, lists);
    }
    return (lists[field] ??= new PostingList());
  }
}
