/**
 * Putting back what the recall check found missing: first into the checkpoint's own summary, as
 * far as its token target allows (the most important facts first), then into the ledger's facts,
 * which have their own cap. The figures say how many were put back and how many were lost.
 */
import { addLedgerFacts, toLedgerFacts } from '../ledger/ledgerFacts';
import type { Ledger } from '../model/ledgerTypes';
import type { CountText } from '../model/countText';
import type { Fact } from '../model/fact';
import { factLine } from '../facts/factLines';
import { withPutBack, type RecallCheck } from './recallCheck';
import type { RecallFigures } from '../model/recallFigures';

/** The heading of the facts added to a summary. */
export const PUT_BACK_HEADING = '### Facts kept word for word';
/** Where the added facts go when the summary has it: before its recovery references. */
const BEFORE_HEADING = '\n### Recovery References';
/** Share of the estimate used, so the exact count usually confirms the first try. @default 0.95 */
const ESTIMATE_SAFETY = 0.95;
/** Exact counts tried before giving up on adding facts to the summary. */
const MAX_FIT_ATTEMPTS = 4;

/** A summary with facts added, and the facts that did not fit. */
export interface SummaryPutBack {
  readonly summary: string;
  readonly placed: readonly Fact[];
  readonly rest: readonly Fact[];
}

/**
 * `summary` with as many of `facts` as fit within `targetTokens` added under
 * {@link PUT_BACK_HEADING}, most important first (shown in their own order); the rest returned.
 */
export async function putBackIntoSummary(
  summary: string,
  facts: readonly Fact[],
  targetTokens: number,
  countText: CountText,
): Promise<SummaryPutBack> {
  if (facts.length === 0) return { summary, placed: [], rest: [] };
  const base = await countText(summary);
  const charsPerToken = summary.length / Math.max(1, base);
  const ranked = [...facts].sort((a, b) => b.score - a.score);
  let room = (targetTokens - base) * charsPerToken * ESTIMATE_SAFETY - PUT_BACK_HEADING.length - 2;
  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS && room > 0; attempt++) {
    const chosen = new Set<Fact>();
    let used = 0;
    for (const fact of ranked) {
      const cost = factLine(fact).length + 3;
      if (used + cost > room) continue;
      chosen.add(fact);
      used += cost;
    }
    if (chosen.size === 0) break;
    const placed = facts.filter((f) => chosen.has(f));
    const text = withSection(summary, placed);
    const tokens = await countText(text);
    if (tokens <= targetTokens) return { summary: text, placed, rest: facts.filter((f) => !chosen.has(f)) };
    room *= (targetTokens - base) / Math.max(1, tokens - base);
  }
  return { summary, placed: [], rest: [...facts] };
}

function withSection(summary: string, facts: readonly Fact[]): string {
  const lines = facts.map((f) => `- ${factLine(f)}`);
  // A summary that has the section already (put back, then filled) gets one section, not two.
  const existing = summary.indexOf(PUT_BACK_HEADING);
  if (existing >= 0) {
    const end = summary.indexOf('\n### ', existing + PUT_BACK_HEADING.length);
    const cut = end < 0 ? summary.length : end;
    return `${summary.slice(0, cut).trimEnd()}\n${lines.join('\n')}${summary.slice(cut)}`;
  }
  const block = [PUT_BACK_HEADING, ...lines].join('\n');
  const at = summary.lastIndexOf(BEFORE_HEADING);
  if (at < 0) return `${summary.trimEnd()}\n\n${block}`;
  return `${summary.slice(0, at).trimEnd()}\n\n${block}\n${summary.slice(at)}`;
}

/** What putting back works on: the check, the checkpoint's summary and target, and the ledger. */
export interface PutBackInput {
  /** The recall check of the span. */
  readonly check: RecallCheck;
  /** The summary of the checkpoint that covers the span. */
  readonly summary: string;
  /** That summary's token target. */
  readonly targetTokens: number;
  readonly countText: CountText;
  readonly ledger: Ledger;
  /** Now, for the ledger's facts. */
  readonly at: number;
  /**
   * Fill the room the summary's target still leaves with facts only found by search, the best
   * first, after the missing ones: that room is the checkpoint's already, and a fact in the
   * context needs no search. The ledger only ever takes missing facts. @default true
   */
  readonly fillWithFound?: boolean;
}

/** The summary and ledger with the facts put back, and the check's figures after it. */
export interface PutBack {
  /** The summary with the missing facts that fit its target. */
  readonly summary: string;
  /** The ledger with the missing facts that did not, under its facts cap. */
  readonly ledger: Ledger;
  readonly figures: RecallFigures;
}

/**
 * Puts the check's missing facts back: into the summary as far as its target allows, the rest
 * into the ledger's facts; then, unless told not to, fills what room the summary's target still
 * leaves with facts only found by search. A fact the ledger's cap drops at once counts as lost; a
 * found fact placed in the summary counts as put back.
 */
export async function putBackMissing(input: PutBackInput): Promise<PutBack> {
  const { missing } = input.check;
  const found = input.fillWithFound === false ? [] : input.check.results.filter((r) => r.status === 'found').map((r) => r.fact);
  // Missing facts outrank found ones whatever their scores: they are lost otherwise.
  const lift = (f: Fact): Fact => ({ ...f, score: f.score + MISSING_FIRST });
  const lifted = new Map(missing.map((f) => [lift(f), f]));
  const candidates = [...lifted.keys(), ...found];
  const put = await putBackIntoSummary(input.summary, candidates, input.targetTokens, input.countText);
  const placed = new Set(put.placed.map((f) => lifted.get(f) ?? f));
  const rest = missing.filter((f) => !placed.has(f));
  const ledger = addLedgerFacts(input.ledger, toLedgerFacts(rest, input.at));
  const inLedger = new Set((ledger.facts ?? []).filter((f) => f.at === input.at).map((f) => f.key));
  const stayed = rest.filter((f) => inLedger.has(f.key)).length;
  const placedMissing = missing.filter((f) => placed.has(f)).length;
  const placedFound = found.filter((f) => placed.has(f)).length;
  const figures = withPutBack(input.check.figures, placedMissing + stayed);
  return {
    summary: put.summary,
    ledger,
    figures: { ...figures, found: figures.found - placedFound, putBack: figures.putBack + placedFound },
  };
}

/** What lifts a missing fact above any found one when the summary's room is shared. */
const MISSING_FIRST = 10;
