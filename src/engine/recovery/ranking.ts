/**
 * The final ordering of search hits. BM25 (termIndex.ts) knows terms, not phrases: among its best
 * candidates, the ones that contain the query as written are boosted, and overlapping windows of
 * one file collapse into the best of them. A hit's excerpt is cut from its passage with credentials
 * masked (search answers any later request, a prompt injection's too); the original is one step
 * away, in the offloaded file the hit names (`ctx_read_offloaded`) or the archive.
 */
import { maskSecrets } from '../text/secrets';
import { excerptAround, phrasePattern, verbatimOffset } from './excerpt';
import type { IndexedPassage } from './indexedPassage';
import type { RecoveryHit } from '../model/recoveryTypes';

/** A passage with the query written out verbatim outranks one with a few more scattered term matches. */
export const PHRASE_BOOST = 3;
/** How many of the term index's best candidates are re-ranked; a verbatim match further down is rare. */
export const RERANK_POOL = 100;

/** One term index result, joined to its passage. */
export interface Candidate {
  readonly passage: IndexedPassage;
  readonly score: number;
  /** The passage's terms that matched (lower-cased). */
  readonly terms: readonly string[];
}

/** The best `top` hits, best first, at most one per message or checkpoint and per spot of a file. */
export function rankCandidates(candidates: readonly Candidate[], query: string, top: number): RecoveryHit[] {
  const phrase = phrasePattern(query);
  const boosted = candidates
    .map((c) => ({ ...c, score: verbatimOffset(c.passage.text, phrase) === undefined ? c.score : c.score * PHRASE_BOOST }))
    .sort((a, b) => b.score - a.score);
  const kept: Candidate[] = [];
  for (const candidate of boosted) {
    if (kept.length >= top) break;
    if (!kept.some((k) => sameSpot(k.passage, candidate.passage))) kept.push(candidate);
  }
  return kept.map((c) => toHit(c, phrase));
}

/** Offloaded windows overlap; other documents give one hit each, from their best passage. */
function sameSpot(a: IndexedPassage, b: IndexedPassage): boolean {
  if (a.documentKey !== b.documentKey) return false;
  return a.source !== 'offloaded' || (a.startLine <= b.endLine && b.startLine <= a.endLine);
}

function toHit(candidate: Candidate, phrase: RegExp | undefined): RecoveryHit {
  const p = candidate.passage;
  // Masked before it is cut, so a credential at an edge is still whole when it is recognized; line breaks are kept.
  const shown = maskSecrets(p.text, { keepLines: true });
  const excerpt = excerptAround(shown, phrase, candidate.terms);
  const where =
    p.file === undefined
      ? { ref: p.ref }
      : {
          ref: `${p.file}#L${p.startLine}-L${p.endLine}`,
          location: { file: p.file, startLine: p.startLine, endLine: p.endLine },
          matchLine: p.startLine + newlinesBefore(shown, excerpt.anchor),
        };
  return {
    source: p.source,
    ...where,
    ...(p.sessionId === undefined ? {} : { sessionId: p.sessionId }),
    ...(p.messageId === undefined ? {} : { messageId: p.messageId }),
    ...(p.role === undefined ? {} : { role: p.role }),
    ...(p.toolName === undefined ? {} : { toolName: p.toolName }),
    score: candidate.score,
    excerpt: excerpt.text,
  };
}

function newlinesBefore(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
