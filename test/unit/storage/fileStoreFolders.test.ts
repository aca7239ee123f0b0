import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { FaultyFileOps } from '../support/faultyFileOps';
import { TempFolders } from '../support/tempFolder';

const temp = new TempFolders();
after(() => temp.cleanUp());

describe('file store folders', () => {
  it('makes a folder only when it is missing: writes and appends into a folder that is there make none', async () => {
    const root = await temp.make();
    let made = 0;
    const store = new FileStore(
      root,
      new FaultyFileOps((call) => {
        if (call.point === 'mkdir') made++;
        return undefined;
      }),
    );
    await store.write('session/offloaded/first.txt', 'one');
    assert.equal(made, 1, 'the missing folder is made');
    await store.append('session/offloaded/log.jsonl', ['a']);
    await store.append('session/offloaded/log.jsonl', ['b']);
    await store.write('session/offloaded/second.txt', 'two');
    assert.equal(made, 1, 'no folder is made again for writes into it');

    await fs.rm(path.join(root, 'session'), { recursive: true });
    await store.append('session/offloaded/log.jsonl', ['c']);
    assert.equal(made, 2, 'a folder removed meanwhile is made again');
    assert.equal(await fs.readFile(path.join(root, 'session/offloaded/log.jsonl'), 'utf8'), 'c\n');
  });
});
