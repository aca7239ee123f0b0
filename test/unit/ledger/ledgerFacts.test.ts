import * as assert from 'node:assert/strict';
import { factsSection, FACTS_TITLE } from '../../../src/engine/ledger/factsSection';
import { addLedgerFacts, toLedgerFacts } from '../../../src/engine/ledger/ledgerFacts';
import { isLedger } from '../../../src/engine/model/ledgerGuard';
import { EMPTY_LEDGER, type LedgerFact } from '../../../src/engine/model/ledgerTypes';
import { renderLedger } from '../../../src/engine/ledger/renderLedger';
import { charCounter } from './ledgerFixtures';

const ledgerFact = (key: string, score: number, at: number): LedgerFact => ({
  kind: 'outcome',
  key,
  line: `Outcome: ${key}`,
  messageId: `m-${key}`,
  score,
  at,
});

describe("the ledger's facts", () => {
  it('turns facts into ledger lines that hold their keys', () => {
    const [entry] = toLedgerFacts(
      [
        {
          kind: 'error',
          key: 'ModuleNotFoundError: lightgbm',
          text: 'ModuleNotFoundError: lightgbm',
          messageId: 't1',
          score: 0.8,
          subject: 'python train.py',
          resolution: { resolved: true, by: '`pip install lightgbm` succeeded' },
        },
      ],
      42,
    );
    assert.equal(entry.line, 'Error: ModuleNotFoundError: lightgbm (`python train.py`) — resolved: `pip install lightgbm` succeeded');
    assert.equal(entry.at, 42);
  });

  it('replaces a fact put back again and drops the lowest-scored, then the oldest, beyond the cap', () => {
    const ledger = addLedgerFacts(EMPTY_LEDGER, [ledgerFact('a', 0.9, 1), ledgerFact('b', 0.4, 1), ledgerFact('c', 0.4, 2)], 3);
    const next = addLedgerFacts(ledger, [ledgerFact('A', 0.5, 3), ledgerFact('d', 0.7, 3)], 3);
    assert.deepEqual(
      (next.facts ?? []).map((f) => `${f.key}@${f.at}`),
      ['c@2', 'A@3', 'd@3'],
    );
  });

  it('leaves the ledger as it is when nothing is put back', () => {
    assert.equal(addLedgerFacts(EMPTY_LEDGER, []), EMPTY_LEDGER);
  });

  it('shows the facts within their own token cap, the most important and newest kept', async () => {
    const facts = Array.from({ length: 30 }, (_, i) => ledgerFact(`figure number ${i} of the nightly run`, i === 3 ? 0.99 : 0.5, i));
    const { countText } = charCounter();
    const text = (await factsSection(facts, 60, countText)) ?? '';
    assert.ok((await countText(text)) <= 60, `${await countText(text)} tokens`);
    assert.ok(text.startsWith(`### ${FACTS_TITLE}\n`));
    assert.ok(text.includes('figure number 3 of'), 'the highest score stays');
    assert.ok(text.includes('figure number 29 of'), 'the newest stays');
    assert.ok(!text.includes('figure number 0 of'), 'the oldest of the lowest goes');
  });

  it('renders the facts in the ledger, after its protected sections and before the tool record', async () => {
    const ledger = {
      ...EMPTY_LEDGER,
      intent: { text: 'Train the churn model.', messageId: 'u1', at: 1 },
      facts: [ledgerFact('validation_auc: 0.8731', 0.8, 2)],
      tools: { ...EMPTY_LEDGER.tools, commands: [{ callId: 'c1', command: 'python train.py', ok: true, at: 1 }] },
    };
    const rendered = await renderLedger(ledger, { liveMessageIds: new Set(), budgetTokens: 2000, countText: charCounter().countText });
    const factsAt = rendered.text.indexOf(`### ${FACTS_TITLE}\n- Outcome: validation_auc: 0.8731`);
    assert.ok(factsAt > rendered.text.indexOf('### Session intent'));
    assert.ok(factsAt < rendered.text.indexOf('python train.py'));
  });

  it('is read back through the ledger guard, and a malformed fact is refused', () => {
    assert.ok(isLedger({ ...EMPTY_LEDGER, facts: [ledgerFact('x y z', 0.5, 1)] }));
    assert.ok(!isLedger({ ...EMPTY_LEDGER, facts: [{ ...ledgerFact('x y z', 0.5, 1), kind: 'rumour' }] }));
    assert.ok(!isLedger({ ...EMPTY_LEDGER, facts: [{ key: 'x' }] }));
  });
});
