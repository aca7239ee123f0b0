import * as assert from 'node:assert/strict';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';

const MODULES = ['billing', 'ledger', 'invoice', 'refund', 'payout', 'dispute', 'tax', 'currency'];

/** A source file of `lines` lines, each naming its module and line, so any line of it is findable. */
function source(module: string, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `export const ${module}Limit${i} = computeLimit('${module}', ${i * 7}); // tier ${i % 4}`,
  ).join('\n');
}

/**
 * A code-review session unlike the shared transcripts: the agent reads one module after another,
 * writes a short note file, runs a short test listing and says little, so its summarized spans hold
 * few facts and the room below the fill level would stay empty without what its tools read,
 * printed and were given.
 */
export function reviewSession(): Message[] {
  const messages: Message[] = [user('Review the payment modules one by one and note where the limits are computed.')];
  MODULES.forEach((module, turn) => {
    messages.push(call(`r${turn}`, 'read_file', { path: `src/${module}.ts` }, `Reading ${module}.`));
    messages.push(result(`r${turn}`, source(module, 160), false, 'read_file'));
    const note = [`# ${module}`, `limits come from computeLimit('${module}', …)`, `${module} has 160 limits in four tiers`].join('\n');
    messages.push(call(`w${turn}`, 'write_file', { path: `notes/${module}.md`, content: note }));
    messages.push(result(`w${turn}`, `Wrote notes/${module}.md`, false, 'write_file'));
    const listing = Array.from({ length: 6 }, (_, i) => `test_${module}_limit_${i} PASSED in ${(i % 9) + 1}ms`).join('\n');
    messages.push(call(`t${turn}`, 'bash', { command: `pytest tests/test_${module}.py -v` }));
    messages.push(result(`t${turn}`, listing));
    messages.push(assistant(`${module} reviewed.`));
    messages.push(user('Go on.'));
  });
  return messages;
}

describe('what summarized spans read, printed and were given, in the room below the fill level', () => {
  it('keeps the files a summarized span read, as read, among the earlier lines, shown after the facts where a rebase leaves room', async () => {
    const messages = reviewSession();
    const { final, figures, session } = await replayAtShareOfInput(messages, {
      // Reads stay whole as they arrive, as in a window many times this one, so the checkpoint summarizes them.
      engine: { ...DEFAULT_OPTIONS, offloadBudgetShare: 0.25 },
    });
    assert.ok(figures.checkpoints >= 1, 'the early modules were summarized');
    const live = final?.messages ?? [];
    assert.ok(!live.some((m) => m.blocks.some((b) => b.type === 'toolResult' && b.callId === 'r0')), 'the first read is no longer live');
    const summarizedRead = MODULES.find(
      (module, turn) =>
        live.every((m) => m.blocks.every((b) => b.type !== 'toolResult' || b.callId !== `r${turn}`)) &&
        session.state.earlierLines.some((l) => l.from === `src/${module}.ts` && l.fromKind === 'read'),
    );
    assert.ok(summarizedRead !== undefined, 'a summarized read is kept under its path');
    assert.ok(
      session.state.earlierLines.some((l) =>
        l.text.startsWith(`> export const ${summarizedRead}Limit80 = computeLimit('${summarizedRead}', 560);`),
      ),
      'a line from its middle, as read',
    );
    assert.ok(figures.finalLevel !== 'RED' && figures.finalLevel !== 'CRITICAL', 'the lines never make it RED');
  });
});
