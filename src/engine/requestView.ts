/**
 * What the next request sends: ctx's context message (the ledger, the checkpoints, what the drift
 * check restored), then the live messages, measured. The ledger is rendered again only when the
 * ledger, the live messages or the budget changed, and an unchanged context message is the same
 * object, so its token count comes from the counter's cache.
 */
import { contextMessage, CONTEXT_MESSAGE_ID, renderContextText, splitAtHeadings } from './checkpoints/contextMessage';
import type { RequestView } from './coordinator';
import { EMPTY_LEDGER, type Ledger } from './ledger/ledgerTypes';
import { renderLedger } from './ledger/renderLedger';
import type { SessionState } from './sessionState';
import type { TokenCounter } from './tokens/counter';
import type { Message } from './types';

/**
 * Before anything left the context, the live messages already hold the intent, the user's messages
 * and the tool calls: only what they do not say (goals, decisions, progress) is shown.
 */
function pinnedOnly(ledger: Ledger): Ledger {
  return { ...ledger, intent: undefined, userMessages: [], tools: EMPTY_LEDGER.tools };
}

export class RequestRenderer {
  private ledgerCache: { key: readonly unknown[]; text: string; overflow: boolean } | undefined;
  private contextCache: { text: string; message: Message | undefined } = { text: '', message: undefined };
  /** Token counts of the ledger's sections at the last render. */
  private sectionCounts = new Map<string, number>();

  constructor(
    private readonly counter: TokenCounter,
    /** Share of the budget the ledger may take. */
    private readonly ledgerShare: number,
  ) {}

  async render(s: SessionState, budget: number): Promise<RequestView> {
    const everything = s.checkpoints.length > 0 || s.watermark !== undefined || s.parentSessionId !== undefined;
    const key = [s.ledger, s.active, budget, everything];
    if (!this.ledgerCache || this.ledgerCache.key.some((k, i) => k !== key[i])) {
      const rendered = await renderLedger(everything ? s.ledger : pinnedOnly(s.ledger), {
        liveMessageIds: new Set(s.active.map((m) => m.id)),
        budgetTokens: Math.floor(budget * this.ledgerShare),
        countText: (t) => this.countBySection(t),
      });
      this.ledgerCache = { key, text: rendered.text, overflow: rendered.overflow };
    }
    const text = renderContextText({ ledgerText: this.ledgerCache.text, checkpoints: s.checkpoints, restored: s.restored });
    if (text !== this.contextCache.text) this.contextCache = { text, message: contextMessage(text, this.contextCache.message) };
    const head = this.contextCache.message;
    const messages = head ? [head, ...s.active] : s.active;
    const measured = await this.counter.measure(messages);
    return {
      messages,
      measured,
      contextTokens: head ? (measured.perMessage.get(CONTEXT_MESSAGE_ID) ?? 0) : 0,
      ledgerOverflow: this.ledgerCache.overflow,
    };
  }

  /**
   * The ledger's size for fitting it to its share: the sum of its sections' counts (within a token
   * a section of the whole text's count), each section counted once while it stays the same, so a
   * long session's ledger is not counted again in full on every request.
   */
  private async countBySection(text: string): Promise<number> {
    const pieces = splitAtHeadings(text);
    const counts = new Map<string, number>();
    let total = pieces.length - 1;
    for (const piece of pieces) {
      const tokens = counts.get(piece) ?? this.sectionCounts.get(piece) ?? (await this.counter.countText(piece));
      counts.set(piece, tokens);
      total += tokens;
    }
    // Estimates made while the tokenizer loads are not kept. Keep what the cuts of this render may ask for again, and forget older sections.
    if (this.counter.estimated) return total;
    this.sectionCounts = new Map([...this.sectionCounts, ...counts].slice(-4 * Math.max(1, counts.size)));
    return total;
  }
}
