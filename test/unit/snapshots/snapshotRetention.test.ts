import * as assert from 'node:assert/strict';
import { AUTOMATIC_SNAPSHOTS_KEPT, SessionSnapshots } from '../../../src/engine/session/sessionSnapshots';
import { emptyState } from '../../../src/engine/model/sessionState';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { FakeClock } from '../support/fakes';

const SESSION = 's-20260121-103522-abc123';

describe('snapshot retention', () => {
  it('keeps the newest automatic snapshots and every snapshot taken on request', async () => {
    const clock = new FakeClock();
    const snapshots = new SessionSnapshots(new MemoryStore(), SESSION, clock);
    const state = emptyState(SESSION, clock.now());
    await snapshots.take('manual', 'before the refactor', state, 100);
    for (let i = 0; i < AUTOMATIC_SNAPSHOTS_KEPT + 5; i++) {
      clock.advance(1000);
      await snapshots.take(i % 2 === 0 ? 'before-checkpoint' : 'auto', undefined, state, 100 + i);
    }
    await snapshots.take('manual', 'after', state, 999);
    const listed = await snapshots.list();
    const automatic = listed.filter((s) => s.reason !== 'manual');
    assert.equal(automatic.length, AUTOMATIC_SNAPSHOTS_KEPT);
    assert.equal(automatic[0].tokens, 100 + AUTOMATIC_SNAPSHOTS_KEPT + 4, 'the newest is kept');
    assert.deepEqual(
      listed.filter((s) => s.reason === 'manual').map((s) => s.name),
      ['after', 'before the refactor'],
    );
  });
});
