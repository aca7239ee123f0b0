import * as assert from 'node:assert/strict';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import { offloadFileName, offloadResult } from '../../src/engine/tiers/offload';
import { toolResultBlock } from '../../src/engine/types';
import { call, filler, result } from './support/builders';
import { sessionRig } from './support/session';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
const FOLDER = 'sessions/s-20260102-030405-test/offloaded';

describe('offload file names', () => {
  it('gives call ids that sanitize alike (a:1, a/1, a_1) different names', () => {
    const names = ['a:1', 'a/1', 'a_1', 'a 1'].map((id) => offloadFileName(AT, 'fetch', id, 'text'));
    assert.equal(new Set(names).size, 4);
  });

  it('gives call ids that share their first 40 characters different names', () => {
    const prefix = 'toolu_'.padEnd(40, 'x');
    assert.notEqual(offloadFileName(AT, 'fetch', `${prefix}A`, 'text'), offloadFileName(AT, 'fetch', `${prefix}B`, 'text'));
  });

  it('gives tool names that sanitize alike different names for the same call id', () => {
    assert.notEqual(offloadFileName(AT, 'mcp/read', 'c1', 'text'), offloadFileName(AT, 'mcp:read', 'c1', 'text'));
  });

  it('is stable: the same call gives the same name', () => {
    assert.equal(offloadFileName(AT, 'fetch', 'c1', 'text'), offloadFileName(AT, 'fetch', 'c1', 'text'));
  });

  it('never overwrites an existing file: a name taken by other content gets a running number', async () => {
    const store = new MemoryStore();
    const first = offloadFileName(AT, 'fetch', 'c1', 'text');
    await store.write(`${FOLDER}/${first}`, 'someone else wrote this');
    const done = await offloadResult(toolResultBlock('c1', filler(20_000), false), 'fetch', 20_000, AT, { store, folder: FOLDER });
    assert.equal(await store.read(`${FOLDER}/${first}`), 'someone else wrote this');
    assert.match(done.file, /-2\.txt$/);
    assert.equal(await store.read(done.file), filler(20_000));
  });

  it('reuses the file when the same result is offloaded again', async () => {
    const store = new MemoryStore();
    const block = toolResultBlock('c1', filler(20_000), false);
    const once = await offloadResult(block, 'fetch', 20_000, AT, { store, folder: FOLDER });
    const twice = await offloadResult(block, 'fetch', 20_000, AT, { store, folder: FOLDER });
    assert.equal(twice.file, once.file);
    assert.deepEqual(await store.list(FOLDER), [once.file.split('/').pop()]);
  });

  it('keeps two results of one tool in one millisecond whose call ids differ only in punctuation apart in a session', async () => {
    const rig = sessionRig();
    await rig.session.add([call('run:1', 'run', {}), call('run/1', 'run', {})]);
    await rig.session.add([result('run:1', filler(20_000, 'alpha')), result('run/1', filler(20_000, 'beta'))]);
    const [a, b] = rig.session.offloads;
    assert.notEqual(a.file, b.file);
    assert.match((await rig.store.read(a.file)) ?? '', /^alpha/);
    assert.match((await rig.store.read(b.file)) ?? '', /^beta/);
  });
});
