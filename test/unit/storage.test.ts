import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Archive } from '../../src/engine/archive';
import type { FileOps } from '../../src/engine/storage/fileOps';
import { FileStore } from '../../src/engine/storage/fileStore';
import { StorageError, storageReasonWords } from '../../src/engine/storage/storageError';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import { StorePathError } from '../../src/engine/storage/storePath';
import { user } from './support/builders';

async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'ctx-store-'));
}

describe('storage', () => {
  it('writes atomically: a crash between write and rename leaves the old file and no temp file', async () => {
    const root = await tempDir();
    const store = new FileStore(root);
    await store.write('s/state.json', 'old');
    const crashing: FileOps = { ...fs, rename: async () => Promise.reject(new Error('killed before rename')) } as FileOps;
    const crashed = new FileStore(root, crashing);
    await assert.rejects(crashed.write('s/state.json', 'new'), StorageError);
    assert.equal(await store.read('s/state.json'), 'old');
    assert.deepEqual(await fs.readdir(path.join(root, 's')), ['state.json']);
  });

  it('creates a missing storage folder on first write', async () => {
    const root = path.join(await tempDir(), 'not', 'there', 'yet');
    const store = new FileStore(root);
    await store.append('sessions/x/archive.jsonl', ['{"a":1}']);
    assert.equal(await store.read('sessions/x/archive.jsonl'), '{"a":1}\n');
  });

  it('reports a read-only storage folder with a clear error naming the path', async function () {
    if (process.getuid?.() === 0) {
      // root ignores permissions: simulate the read-only file system instead.
      const readOnly: FileOps = {
        ...fs,
        open: async () => Promise.reject(Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' })),
      } as FileOps;
      const store = new FileStore('/ro', readOnly);
      await assert.rejects(store.append('a.jsonl', ['x']), /Could not append to \/ro\/a\.jsonl: EROFS: read-only file system/);
      return;
    }
    const root = await tempDir();
    await fs.chmod(root, 0o500);
    await assert.rejects(new FileStore(root).write('a.json', '{}'), /Could not write/);
  });

  it('rejects paths that would leave the store', async () => {
    const store = new MemoryStore();
    await assert.rejects(store.write('../x', ''), StorePathError);
    await assert.rejects(store.write('/etc/passwd', ''), StorePathError);
    await assert.rejects(new FileStore('/tmp').read('a/../../b'), StorePathError);
  });

  it('lists and removes folders in both stores alike', async () => {
    for (const store of [new MemoryStore(), new FileStore(await tempDir())]) {
      await store.write('sessions/a/state.json', '{}');
      await store.write('sessions/b/offloaded/x.txt', 'x');
      assert.deepEqual(await store.list('sessions'), ['a', 'b']);
      await store.remove('sessions/b');
      assert.deepEqual(await store.list('sessions'), ['a']);
      assert.deepEqual(await store.list('nothing'), []);
      assert.equal(await store.read('sessions/b/offloaded/x.txt'), undefined);
    }
  });

  it('archives every message as a versioned JSONL line and reads back what it can, naming the lines it cannot', async () => {
    const store = new MemoryStore();
    const archive = new Archive(store, 'a.jsonl');
    await archive.append([user('one', 'u1'), user('two \ud800 lone surrogate', 'u2')]);
    await store.append('a.jsonl', ['{not json', JSON.stringify({ v: 99, message: {} })]);
    await archive.append([user('three', 'u3')]);
    const back = await archive.read();
    assert.deepEqual(
      back.messages.map((m) => m.id),
      ['u1', 'u2', 'u3'],
    );
    assert.deepEqual(back.unreadableLines, [3, 4]);
    assert.equal(back.messages[1].blocks[0].type === 'text' && back.messages[1].blocks[0].text, 'two \ud800 lone surrogate');
    assert.ok((await store.read('a.jsonl'))?.split('\n')[0].startsWith('{"v":1,'));
  });

  it('says a known storage failure in plain words, whether wrapped or raw, and nothing for an unknown one', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    assert.equal(storageReasonWords(full), 'the disk is full');
    assert.equal(storageReasonWords(new StorageError('/s/state.json', 'write', full)), 'the disk is full');
    assert.equal(storageReasonWords(new Error('something else')), undefined);
    assert.equal(storageReasonWords(new StorageError('/s/state.json', 'write', new Error('odd'))), undefined);
  });
});
