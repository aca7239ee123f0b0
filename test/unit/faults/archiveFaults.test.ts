import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Archive, parseArchive } from '../../../src/engine/archive';
import { SCHEMA_VERSION } from '../../../src/engine/schema';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { StorageError } from '../../../src/engine/storage/storageError';
import { filler, result, user } from '../support/builders';
import { FaultyFileOps } from '../support/faultyFileOps';
import { sessionRig } from '../support/session';
import { TempFolders } from '../support/tempFolder';

const ARCHIVE = 'sessions/s-20260121-103522-test/archive.jsonl';
const temp = new TempFolders();
after(() => temp.cleanUp());

const line = (id: string, text: string) => JSON.stringify({ v: SCHEMA_VERSION, message: user(text, id) });

describe('archive on a full disk', () => {
  it('cuts a failed append back, so a 20 KB line stopped after 4 KB leaves no half line and the retry reads back whole', async () => {
    const root = await temp.make();
    let full = false;
    const ops = new FaultyFileOps((c) =>
      full && c.point === 'write' && c.path.endsWith('archive.jsonl') ? { code: 'ENOSPC', writtenFirst: 4096 } : undefined,
    );
    const archive = new Archive(new FileStore(root, ops), ARCHIVE);
    await archive.append([user('before', 'u0')]);
    full = true;
    const big = result('c1', filler(5_000));
    await assert.rejects(archive.append([big]), (e: unknown) => e instanceof StorageError && e.reason === 'disk-full');
    assert.equal(archive.complete, false);
    const afterFailure = await fs.readFile(path.join(root, ARCHIVE), 'utf8');
    assert.ok(afterFailure.endsWith('\n'), 'no half line is left behind');
    full = false;
    await archive.append([big, user('after', 'u2')]);
    assert.equal(archive.complete, true);
    const back = await archive.read();
    assert.deepEqual(
      back.messages.map((m) => m.id),
      ['u0', big.id, 'u2'],
    );
    assert.deepEqual(back.unreadableLines, []);
  });

  it('moves a torn last line (a crash mid-write) to a side file, byte for byte, before the next append', async () => {
    const root = await temp.make();
    const file = path.join(root, ARCHIVE);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const torn = Buffer.concat([Buffer.from(line('u2', 'é'.repeat(100)).slice(0, 50)), Buffer.from([0xc3])]);
    await fs.writeFile(file, Buffer.concat([Buffer.from(`${line('u1', 'one')}\n`), torn]));
    const repaired: string[] = [];
    const archive = new Archive(new FileStore(root), ARCHIVE, { onRepair: (side) => repaired.push(side) });
    assert.equal((await archive.read()).tornTail, true);
    await archive.append([user('three', 'u3')]);
    assert.equal(repaired.length, 1);
    assert.match(repaired[0], /archive\.jsonl\.torn-\d{8}-\d{6}-\d{3}-1$/);
    assert.deepEqual(await fs.readFile(path.join(root, repaired[0])), torn);
    const back = await archive.read();
    assert.deepEqual(
      back.messages.map((m) => m.id),
      ['u1', 'u3'],
    );
    assert.deepEqual(back.unreadableLines, []);
    assert.equal(back.tornTail, false);
  });

  it('moves a torn tail aside even when the rollback itself failed, and retries the whole message', async () => {
    const root = await temp.make();
    let failing = true;
    const ops = new FaultyFileOps((c) => {
      if (!failing) return undefined;
      if (c.point === 'write' && c.path.endsWith('archive.jsonl')) return { code: 'EIO', writtenFirst: 1000 };
      return c.point === 'truncate' ? { code: 'EIO' } : undefined;
    });
    const store = new FileStore(root, ops);
    const archive = new Archive(store, ARCHIVE);
    const big = result('c1', filler(5_000));
    await assert.rejects(archive.append([big]), /input\/output error/);
    assert.equal((await archive.read()).tornTail, true);
    failing = false;
    await archive.append([big]);
    const back = await archive.read();
    assert.deepEqual(
      back.messages.map((m) => m.id),
      [big.id],
    );
    const sideFiles = (await store.list(path.dirname(ARCHIVE))).filter((n) => n.includes('.torn-'));
    assert.equal(sideFiles.length, 1);
    assert.equal((await store.read(`${path.dirname(ARCHIVE)}/${sideFiles[0]}`))?.length, 1000);
  });

  it('recovers the whole message from a line where an older retry was appended onto a torn one', () => {
    const whole = line('u2', 'the retried message');
    const text = `${line('u1', 'one')}\n${whole.slice(0, 30)}${whole}\n${line('u3', 'three')}\n`;
    const back = parseArchive(text);
    assert.deepEqual(
      back.messages.map((m) => m.id),
      ['u1', 'u2', 'u3'],
    );
    assert.deepEqual(back.salvagedLines, [2]);
    assert.deepEqual(back.unreadableLines, []);
  });

  it('keeps a line unreadable when no whole line follows the torn part', () => {
    const back = parseArchive(`${line('u1', 'one')}\n{"v":1,"message":{"id":"x","role":"user","blocks":[{"v":1}\n`);
    assert.deepEqual(back.unreadableLines, [2]);
    assert.deepEqual(back.salvagedLines, []);
  });

  it('a session on a full disk keeps every message in context, knows its archive is incomplete, and archives them all once space is back', async () => {
    const root = await temp.make();
    let full = true;
    const ops = new FaultyFileOps((c) =>
      full && c.point === 'write' && c.path.endsWith('archive.jsonl') ? { code: 'ENOSPC', writtenFirst: 4096 } : undefined,
    );
    const rig = sessionRig({}, new FileStore(root, ops));
    const big = result('c1', filler(20_000));
    await rig.session.add([user('go', 'u1'), big]);
    assert.equal(rig.session.archiveComplete, false);
    assert.match(rig.session.warnings[0].message, /could not be written .*disk is full/);
    full = false;
    await rig.session.add([user('next', 'u2')]);
    assert.equal(rig.session.archiveComplete, true);
    assert.deepEqual(
      (await rig.session.readArchive()).map((m) => m.id),
      ['u1', big.id, 'u2'],
    );
  });

  it('in memory too, an append after a torn tail starts on its own line', async () => {
    const store = new MemoryStore();
    await store.write('a.jsonl', `${line('u1', 'one')}\n{"v":1,"mess`);
    const archive = new Archive(store, 'a.jsonl');
    await archive.append([user('two', 'u2')]);
    assert.deepEqual(
      (await archive.read()).messages.map((m) => m.id),
      ['u1', 'u2'],
    );
  });
});
