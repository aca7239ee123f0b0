import * as assert from 'node:assert/strict';
import { CONTEXT_MESSAGE_ID } from '../../../src/engine/model/frozenContext';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { messageText } from '../../../src/engine/types';
import { user } from '../support/builders';
import { exchange, furnishedSession, RESERVE, ROOMY_BUDGET } from './dashboardFixtures';

/** Every path in a memory store with its content, to see that nothing was written. */
async function everything(store: MemoryStore, folder = 'sessions'): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  for (const name of await store.list(folder)) {
    const path = `${folder}/${name}`;
    const content = await store.read(path);
    if (content === undefined) for (const [k, v] of await everything(store, path)) out.set(k, v);
    else out.set(path, content);
  }
  return out;
}

describe('undoing the last compression', () => {
  it('puts back the context as it was before the compression, keeps what arrived since, and keeps the undone checkpoint', async () => {
    const { session } = await furnishedSession();
    for (let i = 1; i <= 3; i++) await exchange(session, i);
    const before = await session.prepare(ROOMY_BUDGET);
    await session.compress(ROOMY_BUDGET);
    const [undone] = session.checkpoints;
    await session.add([user('One more thing after the compression.', 'u-after')]);
    const outcome = await session.undoLastCompression();
    assert.equal(outcome.ok, true, outcome.message);
    assert.deepEqual(session.checkpoints, []);
    const after = await session.prepare(ROOMY_BUDGET);
    assert.deepEqual(
      after.messages.slice(0, before.messages.length).map((m) => m.id),
      before.messages.map((m) => m.id),
    );
    assert.equal(after.messages[after.messages.length - 1].id, 'u-after', 'what arrived since stays');
    assert.deepEqual(
      session.state.retiredCheckpoints.map((r) => [r.checkpoint.id, r.reason]),
      [[undone.id, 'undone']],
    );
    assert.ok(
      (await session.listSnapshots()).some((s) => s.reason === 'before-restore'),
      'the undone state is in a snapshot too',
    );
    assert.equal(session.state.history[session.state.history.length - 1].name, 'compression-undone');
  });

  it('keeps what an undo brought back: no checkpoint on its own at RED, only at CRITICAL or when asked', async () => {
    const { session } = await furnishedSession();
    const budget = 20_000;
    for (let i = 1; i <= 4; i++) await exchange(session, i, 1_000);
    await session.compress(budget);
    assert.equal((await session.undoLastCompression()).ok, true);
    let prepared = await session.prepare(budget);
    let i = 10;
    while (prepared.level !== 'RED' && prepared.level !== 'CRITICAL') {
      await exchange(session, ++i, 500);
      prepared = await session.prepare(budget);
    }
    assert.equal(prepared.level, 'RED', `reached RED: ${prepared.usage}`);
    assert.equal(session.checkpoints.length, 0, 'at RED the undone context stays');
    while (session.checkpoints.length === 0 && i < 60) {
      await exchange(session, ++i, 500);
      prepared = await session.prepare(budget);
    }
    assert.ok(
      prepared.events.some((e) => e.name === 'checkpoint-created') || session.checkpoints.length > 0,
      'at CRITICAL a checkpoint is made',
    );
    assert.equal(session.state.checkpointsHeld, false, 'the checkpoint lifts the hold');
  });

  it('undoes compressions one after another, newest first, and then says there is nothing left to undo', async () => {
    const { session } = await furnishedSession();
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    const first = session.checkpoints.map((c) => c.id);
    await exchange(session, 2);
    await session.compress(ROOMY_BUDGET);
    assert.equal(session.checkpoints.length, 2);
    assert.equal((await session.undoLastCompression()).ok, true);
    assert.deepEqual(
      session.checkpoints.map((c) => c.id),
      first,
    );
    assert.equal((await session.undoLastCompression()).ok, true);
    assert.deepEqual(session.checkpoints, []);
    const nothing = await session.undoLastCompression();
    assert.equal(nothing.ok, false);
    assert.match(nothing.message, /no compression to undo/);
  });

  it('tells the dashboard which compression an undo would take back', async () => {
    const { session } = await furnishedSession();
    assert.equal((await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE })).undo, undefined);
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    const { undo } = await session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE });
    assert.match(undo?.snapshotName ?? '', /before checkpoint/);
  });
});

describe('previewing a compression', () => {
  it('shows before and after and the new checkpoint, writing nothing and changing nothing', async () => {
    const { session, store } = await furnishedSession();
    for (let i = 1; i <= 3; i++) await exchange(session, i);
    await session.prepare(ROOMY_BUDGET);
    const state = session.state;
    const files = await everything(store as MemoryStore);
    const preview = await session.previewCompression(ROOMY_BUDGET);
    assert.equal(session.state, state, 'the state is untouched');
    assert.deepEqual(await everything(store as MemoryStore), files, 'no file was written');
    assert.ok(preview.after.tokens < preview.before.tokens);
    assert.ok(preview.checkpoint, 'the checkpoint it would make');
    assert.match(preview.checkpoint.summary, /item-1/);
    assert.ok(preview.messagesAfter < preview.messagesBefore);
    assert.ok(preview.events.some((e) => e.name === 'checkpoint-created'));
  });

  it('applies exactly what was previewed: the same checkpoint and summary, with the snapshot before it written', async () => {
    const { session } = await furnishedSession();
    for (let i = 1; i <= 3; i++) await exchange(session, i);
    const preview = await session.previewCompression(ROOMY_BUDGET);
    const applied = await session.applyCompressionPreview(preview.id);
    assert.equal(applied.ok, true, applied.message);
    assert.deepEqual(session.checkpoints[session.checkpoints.length - 1], preview.checkpoint);
    assert.equal(applied.prepared?.tokens, preview.after.tokens);
    assert.ok((await session.listSnapshots()).some((s) => s.reason === 'before-checkpoint'));
    const sent = await session.prepare(ROOMY_BUDGET);
    assert.equal(sent.messages[0].id, CONTEXT_MESSAGE_ID);
    assert.ok(messageText(sent.messages[0]).includes(preview.checkpoint?.summary.trim() ?? '-'));
    assert.equal((await session.undoLastCompression()).ok, true, 'and it can be undone like any compression');
  });

  it('applies nothing when the context changed since the preview, or when it was cancelled', async () => {
    const { session } = await furnishedSession();
    for (let i = 1; i <= 3; i++) await exchange(session, i);
    const stale = await session.previewCompression(ROOMY_BUDGET);
    await session.add([user('A new message arrives meanwhile.')]);
    const refused = await session.applyCompressionPreview(stale.id);
    assert.equal(refused.ok, false);
    assert.match(refused.message, /changed since the preview/);
    assert.deepEqual(session.checkpoints, []);
    const cancelled = await session.previewCompression(ROOMY_BUDGET);
    session.discardCompressionPreview();
    assert.equal((await session.applyCompressionPreview(cancelled.id)).ok, false);
    assert.deepEqual(session.checkpoints, []);
  });
});
