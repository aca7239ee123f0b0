import * as assert from 'node:assert/strict';
import { SCHEMA_VERSION } from '../../../src/engine/schema';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { isSnapshot } from '../../../src/engine/snapshots/snapshot';
import { SnapshotError, SnapshotStore } from '../../../src/engine/snapshots/snapshotStore';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { FakeClock } from '../support/fakes';
import { sampleContent } from '../support/ledgerBuilders';

const SESSION = 's-20260121-103522-abc123';
const FOLDER = sessionPaths(SESSION).snapshots;

/** A disk that is full: every write and removal fails the way node reports it. */
class FullDiskStore extends MemoryStore {
  override async write(): Promise<void> {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  }
}

/** Counts reads, to check that listing reads each file once. */
class CountingStore extends MemoryStore {
  reads = 0;
  override async read(path: string): Promise<string | undefined> {
    this.reads++;
    return super.read(path);
  }
}

const rig = (store = new MemoryStore(), clock = new FakeClock()) => ({ store, clock, snapshots: new SnapshotStore(store, SESSION, clock) });

describe('snapshot store', () => {
  it('creates, lists, reads by id and by name, and removes a snapshot with its content intact', async () => {
    const { snapshots, clock } = rig();
    const content = sampleContent();
    const created = await snapshots.create({ name: 'Before the refactor', reason: 'manual', content, tokens: 5_234 });

    assert.equal(created.readable, true);
    assert.equal(created.name, 'Before the refactor');
    assert.equal(created.sessionId, SESSION);
    assert.equal(created.at, clock.time);
    assert.equal(created.tokens, 5_234);
    assert.equal(created.messageCount, 3);
    assert.equal(created.checkpointCount, 1);
    assert.equal(created.schema, SCHEMA_VERSION);
    assert.equal(created.file, `${FOLDER}/${created.id}.json`);

    assert.deepEqual(await snapshots.list(), [created]);

    const byId = await snapshots.read(created.id);
    assert.ok(byId);
    assert.deepEqual(byId.content, content);
    assert.equal(byId.reason, 'manual');
    assert.deepEqual((await snapshots.read('  before THE refactor '))?.content, content);

    assert.equal(await snapshots.remove(created.id), true);
    assert.deepEqual(await snapshots.list(), []);
    assert.equal(await snapshots.read(created.id), undefined);
    assert.equal(await snapshots.remove(created.id), false);
  });

  it('names snapshots with a running number per session and the reason in words', async () => {
    const { store, clock, snapshots } = rig();
    const content = sampleContent();
    const a = await snapshots.create({ reason: 'manual', content, tokens: 1 });
    const b = await snapshots.create({ reason: 'before-checkpoint', content, tokens: 1, name: '   ' });
    await snapshots.remove(a.id);
    const c = await new SnapshotStore(store, SESSION, clock).create({ reason: 'before-restore', content, tokens: 1 });
    const other = await new SnapshotStore(store, 's-20260121-103522-zzz999', clock).create({ reason: 'auto', content, tokens: 1 });

    assert.equal(a.name, 'Snapshot 1 · manual');
    assert.equal(b.name, 'Snapshot 2 · before checkpoint');
    assert.equal(c.name, 'Snapshot 3 · before restore');
    assert.equal(other.name, 'Snapshot 1 · auto');
  });

  it('gives unique ids within one millisecond and lists newest first', async () => {
    const { clock, snapshots } = rig();
    const content = sampleContent();
    const first = await snapshots.create({ reason: 'auto', content, tokens: 1 });
    const [second, third] = await Promise.all([
      snapshots.create({ reason: 'auto', content, tokens: 1 }),
      snapshots.create({ reason: 'auto', content, tokens: 1 }),
    ]);
    clock.advance(1);
    const fourth = await snapshots.create({ reason: 'critical', content, tokens: 1 });

    const ids = [first.id, second.id, third.id, fourth.id];
    assert.equal(new Set(ids).size, 4);
    assert.deepEqual([...ids].sort(), ids, 'ids sort in creation order');
    assert.deepEqual(
      (await snapshots.list()).map((s) => s.id),
      [...ids].reverse(),
    );
  });

  it('reads the newest snapshot when several share a name', async () => {
    const { clock, snapshots } = rig();
    await snapshots.create({ name: 'checkpoint', reason: 'manual', content: sampleContent({ watermark: 'old' }), tokens: 1 });
    clock.advance(60_000);
    await snapshots.create({ name: 'Checkpoint', reason: 'manual', content: sampleContent({ watermark: 'new' }), tokens: 1 });
    assert.equal((await snapshots.read('CHECKPOINT'))?.content.watermark, 'new');
    assert.equal(await snapshots.read('no such snapshot'), undefined);
  });

  it('lists a corrupt or foreign file as unreadable by its file name, without throwing', async () => {
    const { store, snapshots } = rig();
    const good = await snapshots.create({ reason: 'manual', content: sampleContent(), tokens: 10 });
    const goodText = await store.read(good.file);
    assert.ok(goodText);
    await store.write(`${FOLDER}/snap-20260121-103522-000-0007.json`, '{"schema": 1, "id": "snap-2026');
    await store.write(`${FOLDER}/notes.json`, '{"hello": "world"}');
    await store.write(`${FOLDER}/copied.json`, goodText);

    const listed = await snapshots.list();
    assert.equal(listed.length, 4);
    assert.deepEqual(
      listed
        .filter((s) => !s.readable)
        .map((s) => s.name)
        .sort(),
      ['copied.json', 'notes.json', 'snap-20260121-103522-000-0007.json'],
    );
    const truncated = listed.find((s) => s.name === 'snap-20260121-103522-000-0007.json');
    assert.equal(truncated?.at, Date.UTC(2026, 0, 21, 10, 35, 22), 'the time is recovered from the id');
    assert.equal(await snapshots.read('snap-20260121-103522-000-0007'), undefined);
    assert.equal(await snapshots.read('notes.json'), undefined);

    assert.equal(await snapshots.remove('notes'), true);
    const next = await snapshots.create({ reason: 'manual', content: sampleContent(), tokens: 1 });
    assert.equal(next.name, 'Snapshot 8 · manual', 'numbers are never reused, even from unreadable files');
  });

  it('reads each file once when listing, and not again on the next listing', async () => {
    const store = new CountingStore();
    const { snapshots: writer, clock } = rig(store);
    for (let i = 0; i < 3; i++) await writer.create({ reason: 'auto', content: sampleContent(), tokens: 1 });
    const snapshots = new SnapshotStore(store, SESSION, clock);
    store.reads = 0;
    await snapshots.list();
    await snapshots.list();
    assert.equal(store.reads, 3);
  });

  it('says in plain words why a snapshot could not be saved', async () => {
    const { snapshots } = rig(new FullDiskStore());
    await assert.rejects(snapshots.create({ reason: 'critical', content: sampleContent(), tokens: 1 }), (e: unknown) => {
      assert.ok(e instanceof SnapshotError);
      assert.equal(
        e.message,
        'Snapshot "Snapshot 1 · critical" could not be saved: the disk is full (ENOSPC: no space left on device, write).',
      );
      assert.match(e.reason, /disk is full/);
      return true;
    });
    assert.deepEqual(await snapshots.list(), []);
  });

  it('keeps the system message as the reason when the error has no known code', async () => {
    const store = new MemoryStore();
    store.write = async () => {
      throw new Error('ENOSPC: no space left on device');
    };
    await assert.rejects(
      new SnapshotStore(store, SESSION, new FakeClock()).create({ name: 'x', reason: 'manual', content: sampleContent(), tokens: 1 }),
      { name: 'SnapshotError', message: 'Snapshot "x" could not be saved: ENOSPC: no space left on device.' },
    );
  });

  it('stores a file the snapshot guard accepts, and the guard rejects another schema', async () => {
    const { store, snapshots } = rig();
    const created = await snapshots.create({ reason: 'manual', content: sampleContent(), tokens: 1 });
    const stored: unknown = JSON.parse((await store.read(created.file)) ?? '');
    assert.ok(isSnapshot(stored));
    assert.equal(isSnapshot({ ...stored, schema: SCHEMA_VERSION + 1 }), false);
    assert.equal(isSnapshot({ ...stored, reason: 'whim' }), false);
    assert.equal(
      isSnapshot({ ...stored, content: { ...stored.content, checkpoints: [{ ...stored.content.checkpoints[0], age: 5 }] } }),
      false,
    );
  });
});
