/**
 * Choosing the facts of a span: duplicates merged (an error keeps its latest occurrence, anything
 * else its first and its best score, a repeated fact counts a little more), then the best of each
 * kind up to its share, then the best of the rest, up to a cap.
 */
import type { Candidate } from './candidate';
import { FACT_KINDS, type Fact, type FactKind } from '../model/fact';
import { matchForm } from '../facts/factKey';

/**
 * Most facts kept per span.
 * @default 40 — about as many as a recent checkpoint can show in a few lines each; the rest of
 * the span stays searchable in the archive.
 */
export const DEFAULT_MAX_FACTS = 40;

/** Each kind's guaranteed share of the cap, so one talkative kind cannot crowd out the others. */
export const KIND_SHARES: Readonly<Record<FactKind, number>> = {
  request: 0.15,
  decision: 0.2,
  error: 0.2,
  outcome: 0.2,
  artifact: 0.15,
  identifier: 0.1,
};

/** What a fact gains each time it comes back (names count their own repeats). @default 0.05, at most twice */
export const REPEAT_BONUS = 0.05;
const MAX_REPEAT_BONUS = 2 * REPEAT_BONUS;
const MAX_SCORE = 0.99;

/** The chosen facts, in the order they appeared. */
export function selectFacts(candidates: readonly Candidate[], maxFacts = DEFAULT_MAX_FACTS): Fact[] {
  const merged = mergeDuplicates(candidates);
  const byKind = new Map<FactKind, Candidate[]>(FACT_KINDS.map((k) => [k, []]));
  for (const c of merged) byKind.get(c.kind)?.push(c);
  const chosen = new Set<Candidate>();
  for (const kind of FACT_KINDS) {
    const quota = Math.floor(maxFacts * KIND_SHARES[kind]);
    for (const c of (byKind.get(kind) ?? []).sort(byScore).slice(0, quota)) chosen.add(c);
  }
  for (const c of [...merged].sort(byScore)) {
    if (chosen.size >= maxFacts) break;
    chosen.add(c);
  }
  return [...chosen].sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...fact }) => fact);
}

/**
 * The facts of a span made of parts whose facts were chosen before (a merged checkpoint's): chosen
 * again among them all, in the parts' order, as if they were one span's candidates.
 */
export function combineFacts(parts: readonly (readonly Fact[])[], maxFacts = DEFAULT_MAX_FACTS): Fact[] {
  let seq = 0;
  return selectFacts(
    parts.flatMap((facts) => facts.map((fact): Candidate => ({ ...fact, seq: seq++ }))),
    maxFacts,
  );
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.seq - b.seq;
}

/** One candidate per kind and key: errors at their latest occurrence, others at their first, each with its best score; marker scores stay on top. */
function mergeDuplicates(candidates: readonly Candidate[]): Candidate[] {
  const byKey = new Map<string, { kept: Candidate; best: number; repeats: number }>();
  for (const c of candidates) {
    const key = `${c.kind}\u0000${matchForm(c.key)}`;
    const known = byKey.get(key);
    if (!known) {
      byKey.set(key, { kept: c, best: c.score, repeats: 0 });
      continue;
    }
    known.repeats++;
    known.best = Math.max(known.best, c.score);
    if (c.kind === 'error' && c.seq >= known.kept.seq) known.kept = c;
  }
  return [...byKey.values()].map(({ kept, best, repeats }) => ({
    ...kept,
    score: best >= MAX_SCORE ? best : Math.min(MAX_SCORE, best + Math.min(MAX_REPEAT_BONUS, repeats * REPEAT_BONUS)),
  }));
}

/** Facts of two lists, each key once (the first list's fact where both have it), the best first. */
export function mergeFactLists(first: readonly Fact[], second: readonly Fact[]): Fact[] {
  const byKey = new Map<string, Fact>();
  for (const f of [...first, ...second]) if (!byKey.has(f.key)) byKey.set(f.key, f);
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}
