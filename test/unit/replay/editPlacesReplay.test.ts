import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { compressedContext, replayAtShareOfInput, unrelatedReads } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

/** Per early edit: its file, the line it changes at its first place and the guard it adds at its second. */
const EDITS = [
  { file: 'app/billing/proration.rb', first: 'days = period.days_in_month', guard: 'return 0 if plan.trial?' },
  {
    file: 'app/billing/invoice_mailer.rb',
    first: 'mail to: account.billing_email',
    guard: 'raise MissingEmail unless account.billing_email',
  },
  { file: 'app/billing/tax_rate.rb', first: 'rate = region.vat_rate', guard: 'rate = BigDecimal("0") if account.tax_exempt?' },
] as const;

/**
 * A billing app's fixes, unlike the shared transcripts: three early edits, each changing a line near the top of a
 * method and adding a guard further down (two places in one replacement), confirmed by a line that names the file,
 * then a long stretch of unrelated reads that pushes the edits out of the live context.
 */
function billingSession(seed: number): Message[] {
  const next = seededRandom(seed);
  const messages: Message[] = [user('Proration, invoice mails and tax rates are wrong for some accounts. Fix all three.')];
  EDITS.forEach(({ file, first, guard }, i) => {
    messages.push(call(`r${i}`, 'read_file', { path: file }));
    messages.push(
      result(
        `r${i}`,
        Array.from({ length: 60 }, (_, k) => `${k + 1}\t    value_${k} = compute_${k}(account, ${Math.floor(next() * 99)})`).join('\n'),
      ),
    );
    messages.push(
      call(`e${i}`, 'edit_file', {
        path: file,
        old_string: ['  def call(account)', '    old_value = 1', '    total = compute(account)', '    total', '  end'].join('\n'),
        new_string: ['  def call(account)', `    ${first}`, '    total = compute(account)', `    ${guard}`, '    total', '  end'].join(
          '\n',
        ),
      }),
    );
    messages.push(result(`e${i}`, `Edited ${file}.`));
    messages.push(assistant(`That one is fixed in ${file}.`));
  });
  messages.push(...unrelatedReads(40, next, (k, n) => `${k},${Math.floor(n() * 9000)},plan-${k % 5}`));
  return messages;
}

describe('replaying a session whose early edits each changed two places of a method', () => {
  for (const seed of [1, 2]) {
    it(`keeps the line each edit put in at its second place, as at its first, at half the input (seed ${seed})`, async () => {
      const replayed = await replayAtShareOfInput(billingSession(seed));
      const context = compressedContext(replayed, 'e2');
      const lost = EDITS.flatMap(({ first, guard }) => [first, guard]).filter((line) => !context.includes(line));
      assert.deepEqual(lost, [], `${replayed.figures.finalTokens} of ${replayed.figures.budget} tokens`);
    });
  }
});
