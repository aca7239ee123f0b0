/** Shared pieces for the ledger tests: a counting tokenizer and an update context. */
import type { LedgerUpdateContext } from '../../../src/engine/ledger/ledgerUpdate';
import type { ToolCallBlock } from '../../../src/engine/types';
import { CharTokenizer } from '../support/fakes';

/** Counts a text with the CharTokenizer (four characters a token) and keeps how often it was asked. */
export function charCounter(): { countText(text: string): Promise<number>; readonly tokenizer: CharTokenizer } {
  const tokenizer = new CharTokenizer();
  return { tokenizer, countText: async (text: string) => (await tokenizer.countMany([text]))[0] };
}

/** An update context with a fixed time and sequential ids. */
export function updateContext(now = Date.UTC(2026, 0, 21, 10, 35, 22), calls: readonly ToolCallBlock[] = []): LedgerUpdateContext {
  let n = 0;
  const byId = new Map(calls.map((c) => [c.id, c]));
  return {
    now,
    countText: charCounter().countText,
    newId: (prefix: string) => `${prefix}-${++n}`,
    findCall: (callId: string) => byId.get(callId),
  };
}
