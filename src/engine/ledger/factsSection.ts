/**
 * The ledger's facts as a section, within its own small token cap: when they do not all fit, the
 * lowest-scored and then the oldest are left out (they remain in the archive). Counted sparingly:
 * the whole section once, and when it is over the cap, each candidate cut once, a few at most.
 */
import { estimateTokens } from '../tokens/estimate';
import { lowestFirst } from './ledgerFacts';
import { section } from './ledgerSections';
import type { LedgerFact } from '../model/ledgerTypes';

/** The section's title. */
export const FACTS_TITLE = 'Facts from summarized messages';

/**
 * Tokens the facts section may take.
 * @default 400 — a dozen lines or so: the facts no summary or search could keep, not a second summary.
 */
export const DEFAULT_FACTS_TOKENS = 400;

/** Cuts tried before showing no facts at all. */
const MAX_FIT_ATTEMPTS = 4;

/** The section, or undefined when there is nothing to show or nothing fits. */
export async function factsSection(
  facts: readonly LedgerFact[],
  maxTokens: number,
  countText: (text: string) => Promise<number>,
): Promise<string | undefined> {
  if (facts.length === 0 || maxTokens <= 0) return undefined;
  const render = (shown: readonly LedgerFact[]) => {
    const chosen = new Set(shown);
    return section(
      FACTS_TITLE,
      facts.filter((f) => chosen.has(f)).map((f) => `- ${f.line}`),
    );
  };
  const all = render(facts);
  if (all === undefined) return undefined;
  const tokens = await countText(all);
  if (tokens <= maxTokens) return all;
  // Best first: the most important and newest are kept; estimates are scaled to the real count.
  const ranked = [...facts].sort((a, b) => lowestFirst(b, a));
  const scale = tokens / Math.max(1, estimateTokens(all));
  let room = maxTokens;
  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS; attempt++) {
    const shown: LedgerFact[] = [];
    let used = estimateTokens(`### ${FACTS_TITLE}\n`) * scale;
    for (const fact of ranked) {
      const cost = (estimateTokens(fact.line) + 2) * scale;
      if (used + cost > room) break;
      shown.push(fact);
      used += cost;
    }
    if (shown.length === 0) return undefined;
    const text = render(shown);
    if (text === undefined) return undefined;
    const count = await countText(text);
    if (count <= maxTokens) return text;
    room -= count - maxTokens + 1;
  }
  return undefined;
}
