import * as assert from 'node:assert/strict';
import { exchange, furnishedSession, RESERVE, ROOMY_BUDGET } from './dashboardFixtures';

describe('dashboard: every item in the context', () => {
  it('lists messages, tool results, checkpoints and ledger parts, largest first, with their measured tokens', async () => {
    const { session } = await furnishedSession();
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    await exchange(session, 2);
    await session.prepare(ROOMY_BUDGET);
    const { items } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE, itemLimit: 1_000 });
    const kinds = new Set(items.items.map((i) => i.kind));
    for (const kind of ['message', 'checkpoint', 'ledger'] as const) assert.ok(kinds.has(kind), `a ${kind} item`);
    const tokens = items.items.map((i) => i.tokens);
    assert.deepEqual(
      tokens,
      [...tokens].sort((a, b) => b - a),
      'largest first',
    );
    assert.equal(items.total, items.items.length);
  });

  it('offers the actions each item allows: no pin for your own messages, offload only for a result not offloaded yet', async () => {
    const { session } = await furnishedSession();
    await session.prepare(ROOMY_BUDGET);
    const { items } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE, itemLimit: 1_000 });
    const byId = new Map(items.items.map((i) => [i.id, i]));
    assert.deepEqual(byId.get('message:u-intent')?.actions, ['open', 'drop']);
    assert.deepEqual(byId.get('message:a-answer')?.actions, ['open', 'pin', 'drop']);
    assert.deepEqual(byId.get('result:c-read')?.actions, ['open', 'pin', 'drop', 'offload']);
    const offloaded = byId.get('result:c-log');
    assert.equal(offloaded?.offloaded, true);
    assert.deepEqual(offloaded?.actions, ['open', 'pin', 'drop']);
    assert.match(byId.get('result:c-read')?.label ?? '', /^read_file result$/);
  });

  it('lists only the largest items asked for, and says how many there are', async () => {
    const { session } = await furnishedSession();
    const { items } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE, itemLimit: 2 });
    assert.equal(items.items.length, 2);
    assert.ok(items.total > 2);
    assert.equal(items.items[0].id, 'result:c-read', 'the kept changelog is the largest');
  });
});
