import * as assert from 'node:assert/strict';
import { applyWatermark, findCheckpointCall } from '../../src/engine/tiers/watermark';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../src/engine/types';
import { assistant, call, filler, result, user } from './support/builders';
import { sessionRig } from './support/session';

const blockTypes = (ms: readonly Message[]) => ms.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join('+')}`);

describe('watermark', () => {
  const conversation = (): Message[] => [
    user('Deactivate the refactoring augments', 'u1'),
    call('c1', 'read_file', { path: 'a.ts' }, 'Reading a.ts first.'),
    result('c1', 'contents of a.ts'),
    call('c2', 'ctx_checkpoint', {}),
    result('c2', 'checkpoint set'),
    assistant('Done.', 'a9'),
    user('Now help me with feature X', 'u2'),
  ];

  it('finds the first call of the checkpoint tool when there is no watermark yet', () => {
    assert.equal(findCheckpointCall(conversation(), 'ctx_checkpoint', undefined), 'c2');
  });

  it('drops tool blocks before the watermark, keeps all text, and drops messages left empty', () => {
    const out = applyWatermark(conversation(), 'c2');
    assert.equal(out.found, true);
    assert.deepEqual(blockTypes(out.messages), [
      'user:text',
      'assistant:text',
      'assistant:toolCall',
      'tool:toolResult',
      'assistant:text',
      'user:text',
    ]);
    assert.equal(out.removedBlocks, 2);
    assert.equal(out.removedMessages, 1);
    assert.ok(out.messages.some((m) => m.blocks.some((b) => b.type === 'text' && b.text === 'Reading a.ts first.')));
  });

  it('changes nothing and reports it when the watermark call is not in the conversation', () => {
    const msgs = conversation();
    const out = applyWatermark(msgs, 'gone');
    assert.equal(out.found, false);
    assert.deepEqual(out.messages, msgs);
  });

  it('advances twice: the second checkpoint is searched after the first', () => {
    const msgs = [
      ...conversation(),
      call('c3', 'grep', { q: 'x' }),
      result('c3', 'hit'),
      call('c4', 'ctx_checkpoint', {}),
      result('c4', 'ok'),
    ];
    const first = findCheckpointCall(msgs, 'ctx_checkpoint', undefined);
    assert.equal(first, 'c2');
    const second = findCheckpointCall(msgs, 'ctx_checkpoint', first);
    assert.equal(second, 'c4');
    const out = applyWatermark(msgs, second ?? '');
    assert.ok(!out.messages.some((m) => m.blocks.some((b) => b.type === 'toolCall' && (b.id === 'c2' || b.id === 'c3'))));
    assert.equal(findCheckpointCall(msgs, 'ctx_checkpoint', 'c4'), undefined);
  });

  it('never separates a call from its result when the pair straddles the watermark', () => {
    // c1 is called before the watermark but its result arrives after the watermark's message.
    const msgs: Message[] = [
      user('go', 'u1'),
      message('a1', 'assistant', [toolCallBlock('c1', 'build', {})]),
      message('a2', 'assistant', [textBlock('checkpointing'), toolCallBlock('cp', 'ctx_checkpoint', {})]),
      message('t1', 'tool', [toolResultBlock('c1', 'build ok')]),
      message('t2', 'tool', [toolResultBlock('cp', 'ok')]),
    ];
    const out = applyWatermark(msgs, 'cp');
    const callIds = out.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : [])));
    const resultIds = out.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolResult' ? [b.callId] : [])));
    assert.deepEqual(callIds, ['cp']);
    assert.deepEqual(resultIds, ['cp']);
  });

  it('keeps a result before the watermark whose call is at the watermark', () => {
    const msgs: Message[] = [
      message('a1', 'assistant', [toolCallBlock('cp', 'ctx_checkpoint', {}), toolCallBlock('c9', 'read', {})]),
      message('t9', 'tool', [toolResultBlock('c9', 'x')]),
    ];
    assert.deepEqual(applyWatermark(msgs, 'cp').messages, msgs);
  });

  it('persists in the session, only advances, and logs a checkpoint tool it cannot find', async () => {
    const { session, logger } = sessionRig();
    await session.add(conversation());
    session.requestCheckpoint('ctx_checkpoint');
    await session.prepare(100_000);
    assert.equal(session.state.watermark, 'c2');

    session.requestCheckpoint('no_such_tool');
    await session.prepare(100_000);
    assert.equal(session.state.watermark, 'c2');
    assert.ok(logger.has('warn', /no_such_tool not found/));

    await session.add([call('c5', 'ctx_checkpoint', {}), result('c5', 'ok')]);
    session.requestCheckpoint('ctx_checkpoint');
    await session.prepare(100_000);
    assert.equal(session.state.watermark, 'c5');
  });

  it('drops the tool blocks before it at the next rebase: at once only when that clears a quarter of the budget', async () => {
    const small = sessionRig();
    await small.session.add(conversation());
    small.session.requestCheckpoint('ctx_checkpoint');
    const waited = await small.session.prepare(100_000);
    assert.equal(small.session.state.watermark, 'c2', 'the watermark moved');
    assert.ok(!waited.events.some((e) => e.kind === 'watermark'), 'a few blocks do not pay for rewriting what was sent');
    assert.ok(small.session.messages.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === 'c1')));
    const rebased = await small.session.compress(100_000);
    assert.equal(rebased.events.filter((e) => e.kind === 'watermark').length, 1, 'the rebase drops them');

    const large = sessionRig();
    await large.session.add([
      user('Read the big logs', 'u1'),
      call('c1', 'read_file', { path: 'build.log' }),
      result('c1', filler(8_000)),
      call('c1b', 'read_file', { path: 'test.log' }),
      result('c1b', filler(8_000)),
      call('c2', 'ctx_checkpoint', {}),
      result('c2', 'checkpoint set'),
      user('Now the next task', 'u2'),
    ]);
    large.session.requestCheckpoint('ctx_checkpoint');
    const dropped = await large.session.prepare(40_000);
    assert.equal(dropped.events.filter((e) => e.kind === 'watermark').length, 1, 'two fifths of the budget pay for themselves');
    assert.ok(!large.session.messages.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === 'c1')));
  });
});

describe('checkpoint tools', () => {
  it('a call to a configured checkpoint tool moves the watermark on the next request without being asked', async () => {
    const { session } = sessionRig({ checkpointTools: ['deactivate_augments'] });
    await session.add([
      user('explore'),
      call('c1', 'grep', {}),
      result('c1', `hits\n${filler(8_000)}`),
      call('c1b', 'grep', {}),
      result('c1b', `more hits\n${filler(8_000)}`),
      call('d1', 'deactivate_augments', {}),
      result('d1', 'ok'),
      user('now build'),
    ]);
    await session.prepare(40_000);
    assert.equal(session.state.watermark, 'd1');
    assert.ok(!session.messages.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === 'c1')));
  });
});
