import * as assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../../src/engine/levels';
import { exchange, furnishedSession, RESERVE, ROOMY_BUDGET } from './dashboardFixtures';
import { user } from '../support/builders';
import { sessionRig } from '../support/session';

const sum = (xs: readonly { tokens: number }[]) => xs.reduce((n, x) => n + x.tokens, 0);

describe('dashboard: the composition of the budget', () => {
  it('adds the parts up to exactly the tokens the request sends, with the free space and the reserve apart', async () => {
    const { session } = await furnishedSession();
    await session.compress(ROOMY_BUDGET);
    const prepared = await session.prepare(ROOMY_BUDGET);
    const { composition } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE });
    assert.equal(composition.used, prepared.tokens);
    assert.equal(sum(composition.parts), prepared.tokens);
    assert.equal(composition.free, ROOMY_BUDGET - prepared.tokens);
    assert.equal(composition.reserve, RESERVE);
    assert.ok(!composition.parts.some((p) => /reserve/i.test(p.label)), 'the reserve is never a used part');
    assert.equal(composition.level, prepared.level);
  });

  it('gives each ledger part, each checkpoint age and the conversation their own part, with their share of the budget', async () => {
    const { session } = await furnishedSession();
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    await exchange(session, 2);
    await session.compress(ROOMY_BUDGET);
    await exchange(session, 3);
    const { composition } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE });
    const keys = composition.parts.map((p) => p.key);
    for (const key of ['goals', 'decisions', 'intent', 'checkpointsRecent', 'checkpointsOld', 'messages', 'framing'] as const) {
      assert.ok(keys.includes(key), `${key} is a part (parts: ${keys.join(', ')})`);
    }
    for (const p of composition.parts) assert.equal(p.share, p.tokens / ROOMY_BUDGET);
  });

  it('tells the system prompt, the tool results kept and the offload previews apart before anything is compressed', async () => {
    const { session } = await furnishedSession();
    await session.prepare(ROOMY_BUDGET);
    const { composition } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE });
    const part = (key: string) => composition.parts.find((p) => p.key === key);
    assert.ok(part('system'), 'the system prompt');
    assert.ok((part('toolResults')?.tokens ?? 0) > 800, 'the changelog read is kept whole');
    const preview = part('offloadPreviews')?.tokens ?? 0;
    assert.ok(preview > 0 && preview < 2_000, `the offloaded log counts as its preview (${preview} tokens)`);
    assert.equal(sum(composition.parts), composition.used);
  });

  it('counts headings inside instruction files and user messages toward their own part, never the section they name', async () => {
    const { session } = await furnishedSession();
    await session.setInstructions([{ path: 'AGENTS.md', text: '# Agent notes\n\n### Goals\n\nAlways cite the file you rely on.' }]);
    await session.add([user('Quote this back:\n\n## Checkpoint 9 · recent · fake\n\n### Locked decisions\n- none', 'u-headings')]);
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    const { composition } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE });
    const tokens = (key: string) => composition.parts.find((p) => p.key === key)?.tokens;
    // The character tokenizer counts each block (a section after its first) with the newline that opens it.
    assert.equal(tokens('goals'), Math.ceil('\n### Goals\n- Ship the notes before Friday'.length / 4));
    assert.equal(tokens('decisions'), Math.ceil('\n### Locked decisions\n- 🔒 Notes are written in English only'.length / 4));
    assert.ok((tokens('instructions') ?? 0) > 10);
    assert.equal(sum(composition.parts), composition.used);
  });

  it('marks where each level starts on the budget', async () => {
    const { session } = sessionRig();
    await exchange(session, 1);
    const { composition } = await session.dashboard({ budget: 10_000, reserveTokens: 0 });
    assert.deepEqual(
      composition.thresholds.map((t) => [t.level, t.share, t.tokens]),
      [
        ['YELLOW', DEFAULT_THRESHOLDS.yellowAt, 2_500],
        ['ORANGE', DEFAULT_THRESHOLDS.orangeAt, 5_000],
        ['RED', DEFAULT_THRESHOLDS.redAt, 7_500],
        ['CRITICAL', DEFAULT_THRESHOLDS.criticalAt, 8_500],
      ],
    );
  });

  it('reports an empty session as all free space', async () => {
    const { session } = sessionRig();
    const { composition } = await session.dashboard({ budget: 8_000, reserveTokens: 1_000 });
    assert.ok(composition.used <= 3, 'only the reply priming');
    assert.equal(composition.free, 8_000 - composition.used);
    assert.equal(composition.level, 'GREEN');
  });
});
