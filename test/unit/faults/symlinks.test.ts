import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { readOffloaded } from '../../../src/engine/recovery/readOffloaded';
import { OffloadedPathRefusedError } from '../../../src/engine/recovery/recoveryErrors';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { StorageError } from '../../../src/engine/storage/storageError';
import { TempFolders } from '../support/tempFolder';

const SESSION = 's-20260121-103522-link';
const temp = new TempFolders();
after(() => temp.cleanUp());

const SECRET = 'root:x:0:0:the secret outside the store';

/** A store with one real offloaded file, and a secret file outside the store. */
async function storeWithOutsideSecret(): Promise<{
  root: string;
  offloaded: string;
  secretFile: string;
  secretFolder: string;
  store: FileStore;
}> {
  const outside = await temp.make('ctx-outside-');
  const secretFile = path.join(outside, 'passwd');
  await fs.writeFile(secretFile, `${SECRET}\n`);
  const root = await temp.make();
  const store = new FileStore(root);
  await store.write(`${sessionPaths(SESSION).offloaded}/real.txt`, 'a real offloaded result mentions kubernetes\n');
  return { root, offloaded: path.join(root, sessionPaths(SESSION).offloaded), secretFile, secretFolder: outside, store };
}

describe('links and folders inside a session folder', () => {
  it('refuses to read a file link in offloaded/, wherever it points, and never returns its content', async () => {
    const { offloaded, secretFile, store, root } = await storeWithOutsideSecret();
    await fs.symlink(secretFile, path.join(offloaded, 'passwd.txt'));
    await fs.symlink(path.join(root, sessionPaths(SESSION).folder, 'offloaded', 'real.txt'), path.join(offloaded, 'inside.txt'));
    for (const name of ['passwd.txt', 'inside.txt']) {
      await assert.rejects(
        readOffloaded(store, SESSION, name),
        (e: unknown) => e instanceof OffloadedPathRefusedError && e.reason === 'link' && !e.message.includes(SECRET),
      );
    }
    await assert.rejects(
      store.read(`${sessionPaths(SESSION).offloaded}/passwd.txt`),
      (e: unknown) => e instanceof StorageError && e.reason === 'link-outside',
    );
  });

  it('does not index a file link, notes it, and still finds the real files', async () => {
    const { offloaded, secretFile, store } = await storeWithOutsideSecret();
    await fs.symlink(secretFile, path.join(offloaded, 'passwd.txt'));
    const index = await RecoveryIndex.build(store, SESSION);
    assert.deepEqual(await index.search('secret'), []);
    assert.equal((await index.search('kubernetes'))[0]?.location?.file, `${sessionPaths(SESSION).offloaded}/real.txt`);
    assert.ok(index.notes.some((n) => /passwd\.txt is a link, which is never followed; it is not searched/.test(n.message)));
  });

  it('skips a folder link and a real folder in offloaded/ with a note instead of crashing', async () => {
    const { offloaded, secretFolder, store } = await storeWithOutsideSecret();
    await fs.symlink(secretFolder, path.join(offloaded, 'linked-folder'));
    await fs.mkdir(path.join(offloaded, 'a-folder'));
    await fs.writeFile(path.join(offloaded, 'a-folder', 'inner.txt'), 'kubernetes inner');
    const index = await RecoveryIndex.build(store, SESSION);
    assert.equal((await index.search('kubernetes')).length, 1);
    assert.ok(index.notes.some((n) => /linked-folder is a link/.test(n.message)));
    assert.ok(index.notes.some((n) => /a-folder is a folder, not an offloaded file/.test(n.message)));
    await assert.rejects(
      readOffloaded(store, SESSION, 'a-folder'),
      (e: unknown) => e instanceof OffloadedPathRefusedError && e.reason === 'folder',
    );
  });

  it('searches nothing through an offloaded folder that is itself a link out of the store, and says so', async () => {
    const root = await temp.make();
    const outside = await temp.make('ctx-outside-');
    await fs.writeFile(path.join(outside, 'leak.txt'), `${SECRET}\n`);
    await fs.mkdir(path.join(root, sessionPaths(SESSION).folder), { recursive: true });
    await fs.symlink(outside, path.join(root, sessionPaths(SESSION).offloaded));
    const store = new FileStore(root);
    const index = await RecoveryIndex.build(store, SESSION);
    assert.deepEqual(await index.search('secret'), []);
    assert.ok(index.notes.some((n) => /outside the storage folder/.test(n.message)));
    await assert.rejects(readOffloaded(store, SESSION, 'leak.txt'), /outside the storage folder/);
  });

  it('never writes through a folder link out of the store', async () => {
    const root = await temp.make();
    const outside = await temp.make('ctx-outside-');
    await fs.mkdir(path.join(root, sessionPaths(SESSION).folder), { recursive: true });
    await fs.symlink(outside, path.join(root, sessionPaths(SESSION).offloaded));
    const store = new FileStore(root);
    await assert.rejects(
      store.write(`${sessionPaths(SESSION).offloaded}/x.txt`, 'x'),
      (e: unknown) => e instanceof StorageError && e.reason === 'link-outside',
    );
    await assert.rejects(store.append(`${sessionPaths(SESSION).offloaded}/x.jsonl`, ['x']), StorageError);
    assert.deepEqual(await fs.readdir(outside), []);
  });
  it('never appends through a link at the file itself, and leaves what it points to as it was', async () => {
    const root = await temp.make();
    const outside = await temp.make('ctx-outside-');
    const target = path.join(outside, 'notes.jsonl');
    await fs.writeFile(target, 'kept\n');
    const offloaded = path.join(root, sessionPaths(SESSION).offloaded);
    await fs.mkdir(offloaded, { recursive: true });
    await fs.symlink(target, path.join(offloaded, 'log.jsonl'));
    const store = new FileStore(root);
    await assert.rejects(
      store.append(`${sessionPaths(SESSION).offloaded}/log.jsonl`, ['x']),
      (e: unknown) => e instanceof StorageError && e.reason === 'link-outside',
    );
    assert.equal(await fs.readFile(target, 'utf8'), 'kept\n');
  });
});
