import * as assert from 'node:assert/strict';
import { isNoOp, planAging, targetTokensFor } from '../../../src/engine/checkpoints/aging';
import type { Checkpoint, CheckpointAge } from '../../../src/engine/model/checkpoint';

const checkpoint = (id: string, age: CheckpointAge, messageIds: string[]): Checkpoint => ({
  id,
  age,
  range: id,
  messageIds,
  summary: id,
  summarizedBy: 'deterministic',
  createdAt: 0,
  originalTokens: 1000,
  currentTokens: 100,
  compressionCount: 1,
  compressionNumber: 1,
  keyDecisions: [],
  filesModified: [],
  nextSteps: [],
});

describe('Checkpoint aging plan', () => {
  it('targets about 1200 → 600 → 300 → 150 tokens', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((a) => targetTokensFor(a as CheckpointAge)),
      [1200, 600, 300, 150],
    );
  });

  it('moves every checkpoint one age up, from its own archived range', () => {
    const steps = planAging([checkpoint('a', 1, ['m1', 'm2']), checkpoint('b', 0, ['m3'])]);
    assert.deepEqual(
      steps.map((s) => [s.replaces.map((c) => c.id), s.age, s.messageIds]),
      [
        [['a'], 2, ['m1', 'm2']],
        [['b'], 1, ['m3']],
      ],
    );
  });

  it('merges the checkpoints that reach the last age into one covering all their messages', () => {
    const steps = planAging([checkpoint('a', 3, ['m1']), checkpoint('b', 2, ['m2']), checkpoint('c', 0, ['m3'])]);
    assert.deepEqual(
      steps[0].replaces.map((c) => c.id),
      ['a', 'b'],
    );
    assert.equal(steps[0].age, 3);
    assert.deepEqual(steps[0].messageIds, ['m1', 'm2']);
    assert.equal(isNoOp(steps[0]), false);
  });

  it('leaves a lone merged checkpoint as it is', () => {
    const [step] = planAging([checkpoint('a', 3, ['m1'])]);
    assert.equal(isNoOp(step), true);
  });
});
