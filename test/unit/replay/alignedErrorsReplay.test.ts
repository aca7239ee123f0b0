import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { compressedContext, replayAtShareOfInput, unrelatedReads } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

const MODULES = ['tariff', 'rebate', 'voucher', 'shipping', 'refund', 'ledger'] as const;

/** The assertion line pytest prints for a module's failing test, aligned as pytest aligns it. */
const assertionOf = (i: number) => `E       AssertionError: assert ${310 + i} == ${210 + i}`;

/**
 * A shop's pricing modules, unlike the shared transcripts: each one's test fails with pytest's aligned assertion line,
 * is fixed and passes, then a long stretch of unrelated reads pushes all of it out of the live context.
 */
function pricingSession(seed: number): Message[] {
  const next = seededRandom(seed);
  const messages: Message[] = [user('Work through the failing pricing tests one module at a time.')];
  MODULES.forEach((name, i) => {
    const test = `python -m pytest tests/test_${name}.py -q`;
    messages.push(call(`t${i}`, 'bash', { command: test }));
    messages.push(
      result(
        `t${i}`,
        [
          'F...',
          '=================================== FAILURES ===================================',
          `___ test_${name}_total ___`,
          `>       assert ${name}_total(items) == ${210 + i}`,
          assertionOf(i),
          `tests/test_${name}.py:${12 + i}: AssertionError`,
          '1 failed, 3 passed in 0.21s',
        ].join('\n'),
        true,
      ),
    );
    messages.push(call(`e${i}`, 'edit_file', { path: `pricing/${name}.py`, old_string: 'rate = 1', new_string: 'rate = 2' }));
    messages.push(result(`e${i}`, `Edited pricing/${name}.py.`));
    messages.push(call(`u${i}`, 'bash', { command: test }));
    messages.push(result(`u${i}`, '4 passed in 0.19s'));
    messages.push(assistant(`The ${name} module passes now.`));
  });
  messages.push(...unrelatedReads(36, next, (k, n) => `${k},sku-${Math.floor(n() * 9000)},${k % 13}`));
  return messages;
}

describe('replaying a session of failing tests whose assertion lines are aligned with runs of spaces', () => {
  for (const seed of [1, 2]) {
    it(`shows every assertion line as pytest printed it, spacing and all, at half the input (seed ${seed})`, async () => {
      const replay = await replayAtShareOfInput(pricingSession(seed));
      const context = compressedContext(replay, 't0');
      const lost = MODULES.map((_, i) => assertionOf(i)).filter((line) => !context.includes(line));
      assert.deepEqual(lost, [], `${replay.figures.finalTokens} of ${replay.figures.budget} tokens`);
    });
  }
});
