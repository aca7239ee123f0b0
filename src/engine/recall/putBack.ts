/**
 * Putting back what the recall check found missing: first into the checkpoint's own summary, as
 * far as its token target allows (the most important facts first), then into the ledger's facts,
 * which have their own cap. The figures say how many were put back and how many were lost.
 */
import { addLedgerFacts, toLedgerFacts } from '../ledger/ledgerFacts';
import type { Ledger } from '../ledger/ledgerTypes';
import type { CountText } from '../summary/summarizer';
import type { Fact } from './fact';
import { factLine } from './factLines';
import { withPutBack, type RecallCheck } from './recallCheck';
import type { RecallFigures } from './recallFigures';

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
  const block = [PUT_BACK_HEADING, ...facts.map((f) => `- ${factLine(f)}`)].join('\n');
  const at = summary.lastIndexOf(BEFORE_HEADING);
  if (at < 0) return `${summary.trimEnd()}\n\n${block}`;
  return `${summary.slice(0, at).trimEnd()}\n\n${block}\n${summary.slice(at)}`;
}

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
}

export interface PutBack {
  /** The summary with the missing facts that fit its target. */
  readonly summary: string;
  /** The ledger with the missing facts that did not, under its facts cap. */
  readonly ledger: Ledger;
  readonly figures: RecallFigures;
}

/**
 * Puts the check's missing facts back: into the summary as far as its target allows, the rest
 * into the ledger's facts. A fact the ledger's cap drops at once counts as lost.
 */
export async function putBackMissing(input: PutBackInput): Promise<PutBack> {
  const { summary, placed, rest } = await putBackIntoSummary(input.summary, input.check.missing, input.targetTokens, input.countText);
  const ledger = addLedgerFacts(input.ledger, toLedgerFacts(rest, input.at));
  const inLedger = new Set((ledger.facts ?? []).filter((f) => f.at === input.at).map((f) => f.key));
  const stayed = rest.filter((f) => inLedger.has(f.key)).length;
  return { summary, ledger, figures: withPutBack(input.check.figures, placed.length + stayed) };
}
