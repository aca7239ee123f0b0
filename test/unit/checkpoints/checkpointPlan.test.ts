import * as assert from 'node:assert/strict';
import { planCheckpoint, safeBoundaries } from '../../../src/engine/checkpoints/checkpointPlan';
import { assistant, call, result, user } from '../support/builders';

describe('Checkpoint plan', () => {
  const conversation = [
    user('start', 'u1'),
    call('c1', 'read_file', { path: 'a.ts' }),
    result('c1', 'body'),
    assistant('read it', 'a1'),
    user('next', 'u2'),
    assistant('ok', 'a2'),
    user('more', 'u3'),
    assistant('done', 'a3'),
  ];

  it('never cuts between a tool call and its result', () => {
    const safe = safeBoundaries(conversation);
    assert.equal(safe[2], false, 'between the call and its result');
    assert.equal(safe[1], true);
    assert.equal(safe[3], true);
  });

  it('keeps the latest messages and takes the smallest prefix that reaches the target', () => {
    const plan = planCheckpoint({
      active: conversation,
      messageTokens: conversation.map(() => 100),
      fixedTokens: 0,
      checkpointTokens: 100,
      budget: 1_000,
      targetUsage: 0.5,
      keepMessages: 3,
      keepTokens: 0,
    });
    // 800 tokens; the allowance is 500 − 100 = 400: keeping the last 4 messages fits.
    assert.deepEqual(
      plan?.messageIds,
      conversation.slice(0, 4).map((m) => m.id),
    );
    assert.equal(plan?.tokens, 400);
    assert.equal(plan?.reachesTarget, true);
  });

  it('takes everything but the kept messages when the target cannot be reached, and says so', () => {
    const plan = planCheckpoint({
      active: conversation,
      messageTokens: conversation.map(() => 100),
      fixedTokens: 900,
      checkpointTokens: 100,
      budget: 1_000,
      targetUsage: 0.5,
      keepMessages: 3,
      keepTokens: 0,
    });
    assert.equal(plan?.messageIds.length, 5);
    assert.equal(plan?.reachesTarget, false);
  });

  it('keeps at least the token amount of the latest messages', () => {
    const plan = planCheckpoint({
      active: conversation,
      messageTokens: conversation.map(() => 100),
      fixedTokens: 0,
      checkpointTokens: 0,
      budget: 10_000,
      targetUsage: 0,
      keepMessages: 1,
      keepTokens: 450,
    });
    assert.equal(plan?.messageIds.length, 3, 'five messages (500 tokens) kept');
  });

  it('plans nothing when everything is among the kept messages', () => {
    assert.equal(
      planCheckpoint({
        active: conversation.slice(0, 3),
        messageTokens: [100, 100, 100],
        fixedTokens: 0,
        checkpointTokens: 0,
        budget: 1_000,
        targetUsage: 0,
        keepMessages: 3,
        keepTokens: 0,
      }),
      undefined,
    );
  });
});
