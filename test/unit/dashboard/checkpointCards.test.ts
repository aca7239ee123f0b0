import * as assert from 'node:assert/strict';
import { targetTokensFor } from '../../../src/engine/checkpoints/aging';
import { checkpointCards } from '../../../src/engine/dashboard/checkpointCards';
import { emptyState } from '../../../src/engine/model/sessionState';
import { sampleCheckpoint } from '../support/ledgerBuilders';

describe('dashboard: the checkpoints', () => {
  it('shows each checkpoint against the target of its age, with the drift findings after it and its recall figures', () => {
    const state = {
      ...emptyState('s-20260121-103522-test', 0),
      checkpoints: [
        sampleCheckpoint({ id: 'cp1', age: 1, currentTokens: 640, recall: { extracted: 10, kept: 6, found: 2, putBack: 1, lost: 1 } }),
        sampleCheckpoint({ id: 'cp2', age: 0, currentTokens: 1_100, range: 'Messages 51–80' }),
      ],
      history: [
        {
          at: 1,
          kind: 'drift' as const,
          savedTokens: 0,
          detail: 'Drift check: 1 item(s) missing…',
          name: 'drift-detected' as const,
          checkpointId: 'cp2',
        },
        { at: 2, kind: 'drift' as const, savedTokens: 0, detail: 'about another checkpoint', checkpointId: 'cp-gone' },
      ],
    };
    const [old, recent] = checkpointCards(state, 1_200);
    assert.equal(old.ageLabel, 'old');
    assert.equal(old.target, targetTokensFor(1, 1_200));
    assert.deepEqual(old.drift, []);
    assert.deepEqual(
      old.recall.map((r) => [r.label, r.value]),
      [
        ['Facts checked', '10'],
        ['Kept in the context', '6'],
        ['Found by search', '2'],
        ['Put back', '1'],
        ['Lost', '1'],
        ['Recall', '85%'],
      ],
    );
    assert.equal(recent.number, 2);
    assert.equal(recent.target, 1_200);
    assert.deepEqual(
      recent.drift.map((d) => d.detail),
      ['Drift check: 1 item(s) missing…'],
    );
    assert.deepEqual(recent.recall, [], 'no recall check ran on it');
  });
});
