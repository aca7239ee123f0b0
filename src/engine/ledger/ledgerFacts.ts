/**
 * The ledger's facts: what the recall check put back because a summary dropped it and no search
 * could find it. Kept in the ledger, never summarized, under a count cap (the rendered part has
 * its own token cap, see `factsSection`): the lowest-scored, then the oldest, go first.
 */
import { factLine } from '../facts/factLines';
import type { Fact } from '../model/fact';
import { matchForm } from '../facts/factKey';
import type { Ledger, LedgerFact } from '../model/ledgerTypes';

/**
 * Most facts the ledger keeps.
 * @default 60 — more than its token cap shows at once; the spare ones move up as others leave.
 */
export const MAX_LEDGER_FACTS = 60;

/** Facts as the ledger keeps them, put back at `at`. */
export function toLedgerFacts(facts: readonly Fact[], at: number): LedgerFact[] {
  return facts.map((f) => ({ kind: f.kind, key: f.key, line: factLine(f), messageId: f.messageId, score: f.score, at }));
}

/**
 * The ledger with `facts` added: a fact already there (same kind and key) is replaced, and beyond
 * `max` the lowest-scored, then the oldest, are dropped. Kept in the order they were put back.
 */
export function addLedgerFacts(ledger: Ledger, facts: readonly LedgerFact[], max = MAX_LEDGER_FACTS): Ledger {
  if (facts.length === 0) return ledger;
  const byKey = new Map<string, LedgerFact>();
  for (const fact of [...(ledger.facts ?? []), ...facts]) {
    const key = `${fact.kind}\u0000${matchForm(fact.key)}`;
    byKey.delete(key);
    byKey.set(key, fact);
  }
  let kept = [...byKey.values()];
  if (kept.length > max) {
    const dropped = new Set([...kept].sort(lowestFirst).slice(0, kept.length - max));
    kept = kept.filter((f) => !dropped.has(f));
  }
  return { ...ledger, facts: kept };
}

/** Lowest score first, then oldest first. */
export function lowestFirst(a: LedgerFact, b: LedgerFact): number {
  return a.score - b.score || a.at - b.at;
}
