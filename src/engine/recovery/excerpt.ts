/** A short view of a passage around its best match, for a hit list a model or a person can scan. */
import { escapeRegExp } from '../text/escapeRegExp';

/** Long enough for a log line and its neighbours, short enough for ten hits in one tool result. */
export const EXCERPT_CHARS = 300;
/** An excerpt edge moves this far at most to fall between words rather than inside one. */
const WORD_SNAP_CHARS = 20;
/** Occurrences of one term looked at when choosing where to excerpt. */
const OCCURRENCES_PER_TERM = 20;

/** Where the best match is, and the excerpt around it. */
export interface Excerpt {
  readonly text: string;
  /** Offset of the best match in the passage. */
  readonly anchor: number;
}

/**
 * The excerpt is centred on the query written out verbatim (case-insensitive) when the passage has
 * it (`phrase`, from `phrasePattern`), otherwise on the spot where the most distinct matched terms sit together.
 */
export function excerptAround(passage: string, phrase: RegExp | undefined, matchedTerms: readonly string[]): Excerpt {
  const anchor = verbatimOffset(passage, phrase) ?? densestOffset(passage, matchedTerms);
  const roughEnd = Math.min(passage.length, Math.max(0, anchor - Math.floor(EXCERPT_CHARS / 3)) + EXCERPT_CHARS);
  const start = snapStart(passage, Math.max(0, roughEnd - EXCERPT_CHARS), anchor);
  const end = snapEnd(passage, roughEnd);
  const body = passage.slice(start, end).replace(/\s+/g, ' ').trim();
  return { text: `${start > 0 ? '…' : ''}${body}${end < passage.length ? '…' : ''}`, anchor };
}

/**
 * The query written out verbatim, case-insensitive, any run of whitespace matching any other; undefined for a blank
 * query. Made once per search: the ranking tests it against a hundred passages.
 */
export function phrasePattern(query: string): RegExp | undefined {
  const words = query
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  return words.length === 0 ? undefined : new RegExp(words.map(escapeRegExp).join('\\s+'), 'iu');
}

/** Offset of the phrase in the passage. */
export function verbatimOffset(passage: string, phrase: RegExp | undefined): number | undefined {
  return phrase?.exec(passage)?.index;
}

function densestOffset(passage: string, terms: readonly string[]): number {
  const occurrences: { term: number; at: number }[] = [];
  terms.forEach((term, index) => {
    const pattern = new RegExp(escapeRegExp(term), 'giu');
    for (let n = 0, m = pattern.exec(passage); m && n < OCCURRENCES_PER_TERM; n++, m = pattern.exec(passage)) {
      occurrences.push({ term: index, at: m.index });
    }
  });
  let best = { at: 0, distinct: 0 };
  for (const o of occurrences) {
    const near = occurrences.filter((x) => x.at >= o.at && x.at < o.at + (EXCERPT_CHARS * 2) / 3);
    const distinct = new Set(near.map((x) => x.term)).size;
    if (distinct > best.distinct || (distinct === best.distinct && o.at < best.at)) best = { at: o.at, distinct };
  }
  return best.at;
}

/** Moves a cut start forward to just after whitespace, never past the match. */
function snapStart(passage: string, start: number, anchor: number): number {
  if (start === 0) return 0;
  for (let i = start; i < Math.min(anchor, start + WORD_SNAP_CHARS); i++) if (/\s/.test(passage[i])) return i + 1;
  return start;
}

/** Moves a cut end back to whitespace. */
function snapEnd(passage: string, end: number): number {
  if (end >= passage.length) return passage.length;
  for (let i = end; i > end - WORD_SNAP_CHARS && i > 0; i--) if (/\s/.test(passage[i])) return i;
  return end;
}
