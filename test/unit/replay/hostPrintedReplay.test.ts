import * as assert from 'node:assert/strict';
import { message, messageText, printedTextBlock, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

const PARTS = ['invoice', 'ledger', 'coupon', 'refund', 'basket', 'voucher', 'receipt', 'tariff'];

/** Rows a shell prints: `lines` of them, plausible and different. */
function rows(next: () => number, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${PARTS[Math.floor(next() * PARTS.length)]}-${i} ${Math.floor(next() * 90_000)} ok`).join(
    '\n',
  );
}

let printed = 0;
/** A user message holding only what the host printed of something it ran itself, with the tally it prints after each. */
const hostPrinted = (text: string): Message =>
  message(`p${++printed}`, 'user', [
    printedTextBlock(`${text}\nTokens: ${3 + (printed % 7)}.${printed % 10}k sent, ${200 + printed * 13} received.`),
  ]);

/**
 * A pair-programming session in a host that applies the model's edits and runs commands itself, then prints what
 * came of them into the conversation (as Aider does): no tool call asks for that output. The facts looked for are
 * in the first fifth; the rest is work that pushes them out of the live context.
 */
function hostSession(seed: number): { messages: Message[]; facts: Record<string, string> } {
  const next = seededRandom(seed);
  const facts = {
    commit: 'Commit 5e1c0d7 fix: refunds round half to even',
    modelError: 'RateLimitError: quota for model tessera-large exceeded, retry in 60 seconds',
    testVerdict: '37 passed, 2 skipped in 4.81s',
  };
  const messages: Message[] = [
    user('Refunds are off by a cent on odd totals. Fix the rounding.'),
    assistant('The refund total rounds half up; banks round half to even. Editing billing/refund.py.'),
    hostPrinted(`Applied edit to billing/refund.py\n${facts.commit}`),
    hostPrinted('Added billing/rounding.py to the chat'),
    user('run the billing tests'),
    hostPrinted(`Running pytest tests/billing\n${rows(next, 30)}\n${facts.testVerdict}`),
    user('now the coupons'),
    hostPrinted(`litellm.${facts.modelError}\nRetrying in 60.0 seconds...`),
    assistant('The coupon code applies the discount before tax; it should apply after.'),
  ];
  for (let turn = 0; turn < 40; turn++) {
    messages.push(user(`Look at the ${PARTS[turn % PARTS.length]} report ${turn}.`));
    messages.push(call(`w${turn}`, 'shell', { command: `python report.py --part ${turn}` }));
    messages.push(result(`w${turn}`, rows(next, 60 + Math.floor(next() * 60))));
    messages.push(assistant(`Report ${turn} matches the books.`));
  }
  return { messages, facts };
}

describe('replaying a session whose host printed what came of its edits and commands', () => {
  for (const seed of [1, 2, 3]) {
    it(`keeps the commit, test verdict and failed model call the host printed, verbatim, not its tally, at half the size (seed ${seed})`, async () => {
      const { messages, facts } = hostSession(seed);
      const { final, figures, session } = await replayAtShareOfInput(messages, { format: 'aider' });
      session.dispose();
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const live = new Set(messages.slice(0, 9).map((m) => m.id));
      assert.ok(!(final?.messages ?? []).some((m) => live.has(m.id)), 'the host printed it before the live context');
      const context = (final?.messages ?? []).map(messageText).join('\n');
      const lost = Object.entries(facts).filter(([, text]) => !context.includes(text));
      assert.deepEqual(lost, [], 'what the host printed is in the final context');
      const contextMessage = messageText(final?.messages[0] ?? message('none', 'user', []));
      assert.doesNotMatch(contextMessage, /Tokens: [\d.]+k sent/, 'a line every printout ends with is no outcome');
      assert.ok(figures.finalTokens <= figures.budget);
    });
  }
});
