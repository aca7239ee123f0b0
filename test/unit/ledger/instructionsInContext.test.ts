import * as assert from 'node:assert/strict';
import { CONTEXT_MESSAGE_ID } from '../../../src/engine/model/frozenContext';
import { isLedger } from '../../../src/engine/model/ledgerGuard';
import { INSTRUCTIONS_HEADING } from '../../../src/engine/ledger/ledgerSections';
import { EMPTY_LEDGER, type FileRecord, type Ledger } from '../../../src/engine/model/ledgerTypes';
import { renderLedger } from '../../../src/engine/ledger/renderLedger';
import { messageText } from '../../../src/engine/types';
import { assistant, filler, user } from '../support/builders';
import { sessionRig } from '../support/session';
import { charCounter } from './ledgerFixtures';

const RULE = 'Never push to the release branch without a signed tag.\n\n## Commit messages\nImperative mood, 72 columns.';
const INSTRUCTIONS = [
  { path: 'AGENTS.md', text: RULE },
  { path: '.github/instructions/sql.instructions.md', text: 'Parameterize every query.', applyTo: ['**/*.sql'] },
];

function ledgerWithFiles(count: number): Ledger {
  const files: FileRecord[] = Array.from({ length: count }, (_, i) => ({
    path: `src/area${i}/module${i}.ts`,
    actions: ['read'],
    lastAt: i,
    lastCallId: `c${i}`,
  }));
  return { ...EMPTY_LEDGER, instructions: INSTRUCTIONS, tools: { ...EMPTY_LEDGER.tools, files } };
}

describe('workspace instructions in the context', () => {
  it('renders the instruction files first in the ledger, verbatim, each under its path and scope', async () => {
    const rendered = await renderLedger(ledgerWithFiles(0), {
      liveMessageIds: new Set(),
      budgetTokens: 10_000,
      countText: charCounter().countText,
    });
    const at = rendered.text.indexOf(INSTRUCTIONS_HEADING);
    assert.ok(at > 0, 'the instructions are in the ledger');
    assert.equal([...rendered.text.matchAll(/\n### /g)].length, 1, 'they are its only section');
    assert.ok(rendered.text.includes(`#### AGENTS.md\n\n${RULE}`), 'the text is verbatim, headings and all');
    assert.ok(rendered.text.includes('#### .github/instructions/sql.instructions.md (applies to **/*.sql)\n\nParameterize every query.'));
  });

  it('counts them in the protected part: the tool record is shortened instead, and overflow is reported when they alone do not fit', async () => {
    const counter = charCounter();
    const ledger = ledgerWithFiles(200);
    const full = await renderLedger(ledger, { liveMessageIds: new Set(), budgetTokens: 100_000, countText: counter.countText });
    const tight = await renderLedger(ledger, {
      liveMessageIds: new Set(),
      budgetTokens: Math.floor(full.tokens / 2),
      countText: counter.countText,
    });
    assert.equal(tight.overflow, false);
    assert.ok(tight.text.includes(RULE), 'the instructions are kept whole');
    assert.ok(
      tight.omitted.some((o) => /of 200 files/.test(o)),
      `the file record was shortened: ${tight.omitted.join('; ')}`,
    );
    const tiny = await renderLedger(ledger, { liveMessageIds: new Set(), budgetTokens: 10, countText: counter.countText });
    assert.equal(tiny.overflow, true);
    assert.ok(tiny.text.includes(RULE), 'overflowing, they are still all there');
  });

  it('reads back ledgers stored before instructions were kept, and rejects malformed ones', () => {
    const { instructions: _none, ...stored } = ledgerWithFiles(1);
    assert.equal(isLedger(JSON.parse(JSON.stringify(stored))), true);
    assert.equal(isLedger(JSON.parse(JSON.stringify(ledgerWithFiles(1)))), true);
    assert.equal(isLedger({ ...stored, instructions: [{ path: 'AGENTS.md' }] }), false);
    assert.equal(isLedger({ ...stored, instructions: [{ path: 'a.instructions.md', text: 'x', applyTo: '**' }] }), false);
  });

  it('sends them in every request, from the first one, and they survive a checkpoint verbatim', async () => {
    const { session } = sessionRig();
    assert.equal(await session.setInstructions(INSTRUCTIONS), true);
    assert.equal(await session.setInstructions(INSTRUCTIONS), false, 'the same instructions change nothing');
    await session.add([user('Set up the release job.'), assistant('Sure.')]);
    const first = await session.prepare(20_000);
    assert.equal(first.messages[0].id, CONTEXT_MESSAGE_ID);
    assert.ok(messageText(first.messages[0]).includes(RULE));

    for (let i = 0; i < 6; i++) await session.add([user(`Step ${i} of the release job.`), assistant(filler(600, `step${i}`))]);
    const compressed = await session.compress(20_000);
    assert.ok(compressed.checkpoints >= 1, 'a checkpoint was made');
    const context = messageText(compressed.messages[0]);
    assert.match(context, /## Checkpoint 1/);
    assert.ok(context.includes(RULE), 'the rule is in the context after the checkpoint, verbatim');
    assert.ok(context.includes('Parameterize every query.'));
  });
});
