import * as assert from 'node:assert/strict';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { searchFindings } from '../../../src/engine/recall/searchFindings';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { call, result } from '../support/builders';

const findingsOf = (input: Record<string, unknown>, output: string, tool = 'Bash') =>
  readToolSteps([call('s1', tool, input), result('s1', output)]).flatMap((step) => searchFindings(step).map((f) => f.text));

describe('where a search found what it looked for defined', () => {
  it('keeps the hits that define a name the search asked for, word for word, and no call, import or longer name', () => {
    const output = [
      'billing/models.py:14:class Invoice(Base):',
      'billing/models.py:88:class Refund(Base):',
      'billing/models.py:120:class InvoiceLine(Base):',
      'billing/api.py:3:from billing.models import Invoice, Refund',
      'billing/api.py:41:    invoice = Invoice(total=0)',
    ].join('\n');
    assert.deepEqual(findingsOf({ command: 'rg -n "class Invoice|class Refund" billing' }, output), [
      'billing/models.py:14:class Invoice(Base):',
      'billing/models.py:88:class Refund(Base):',
    ]);
  });

  it('reads the hits of a search of one file, with modifiers and a method receiver before the name', () => {
    const output = [
      '212:    let due = next_due_date(plan)?;',
      '340:pub(crate) fn next_due_date(plan: &Plan) -> Option<NaiveDate> {',
      '512:func (s *Scheduler) reschedule(ctx context.Context) error {',
    ].join('\n');
    assert.deepEqual(findingsOf({ pattern: 'next_due_date|reschedule', path: 'src/schedule.rs' }, output, 'Grep'), [
      '340:pub(crate) fn next_due_date(plan: &Plan) -> Option<NaiveDate> {',
      '512:func (s *Scheduler) reschedule(ctx context.Context) error {',
    ]);
  });

  it('takes nothing from a command that searched no files, nor from a failed search', () => {
    assert.deepEqual(findingsOf({ command: 'cat billing/models.py' }, '14:class Invoice(Base):'), []);
    const failed = readToolSteps([
      call('s2', 'Bash', { command: 'rg -n "class Invoice" billing' }),
      result('s2', '14:class Invoice(Base):', true),
    ]);
    assert.deepEqual(failed.flatMap(searchFindings), []);
  });

  it('makes a found definition among many hits an artifact of the session', () => {
    const uses = Array.from(
      { length: 12 },
      (_, i) => `payments/jobs/job${i}.py:${10 + i}:    settle_refund(refund_id, amount_cents=${i * 100})`,
    );
    const facts = extractFacts([
      call('s3', 'Bash', { command: 'grep -rn "settle_refund" payments/' }),
      result(
        's3',
        [
          ...uses.slice(0, 6),
          'payments/refunds.py:57:def settle_refund(refund_id: str, amount_cents: int) -> Settlement:',
          ...uses.slice(6),
        ].join('\n'),
      ),
    ]);
    const found = facts.find(
      (f) => f.text === 'payments/refunds.py:57:def settle_refund(refund_id: str, amount_cents: int) -> Settlement:',
    );
    assert.equal(found?.kind, 'artifact');
  });
});
