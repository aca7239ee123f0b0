import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { readSessionOffloaded } from '../../../src/engine/recovery/readSessionOffloaded';
import { RecoveryError } from '../../../src/engine/recovery/recoveryErrors';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { StorageError } from '../../../src/engine/storage/storageError';
import { TempFolders } from '../support/tempFolder';
import { seededRandom } from '../tokens/seededRandom';

const CURRENT = 's-20260121-103522-mine';
const OTHER = 's-20260121-103522-them';
const CASES = 2_000;
const SECRET = 'SECRET-NOT-FOR-THE-MODEL';
const temp = new TempFolders();
let cases = 0;
after(async () => {
  await temp.cleanUp();
  console.log(`      figures: ${cases} hostile paths tried`);
});

/** Pieces hostile paths are made of. */
const PIECES = [
  '..',
  '.',
  '',
  '...',
  ' ..',
  '.. ',
  '%2e%2e',
  '．．',
  '..\\..',
  '\u0000',
  '~',
  'C:',
  'file:',
  '//',
  'offloaded',
  'sessions',
  CURRENT,
  OTHER,
  'state.json',
  'archive.jsonl',
  'result.txt',
  'passwd.txt',
  'folder',
  'result.txt\u0000.png',
  'RESULT.TXT',
];

describe('faults: hostile paths to ctx_read_offloaded', () => {
  it(`reads nothing outside the current session's offloaded files over ${CASES} seeded hostile paths`, async () => {
    const root = await temp.make();
    const store = new FileStore(root);
    const mine = sessionPaths(CURRENT);
    await store.write(`${mine.offloaded}/result.txt`, 'an offloaded result\n');
    await store.write(mine.state, `{"${SECRET}": 1}`);
    await store.write(mine.archive, `{"${SECRET}": 2}\n`);
    await store.write(`${sessionPaths(OTHER).offloaded}/result.txt`, `${SECRET} of another session\n`);
    const outside = await temp.make('ctx-outside-');
    await fs.writeFile(path.join(outside, 'passwd'), `${SECRET} outside\n`);
    await fs.symlink(path.join(outside, 'passwd'), path.join(root, mine.offloaded, 'passwd.txt'));
    await fs.mkdir(path.join(root, mine.offloaded, 'folder'));
    const random = seededRandom(404);
    const pick = () => PIECES[Math.floor(random() * PIECES.length)];
    let read = 0;
    for (let i = 0; i < CASES; i++) {
      const separator = random() < 0.8 ? '/' : '\\';
      let requested = Array.from({ length: 1 + Math.floor(random() * 5) }, pick).join(separator);
      if (random() < 0.2) requested = `${root}/${requested}`;
      // The location an offload notice shows, of this session or another.
      if (random() < 0.1) requested = `${path.join(root, sessionPaths(random() < 0.5 ? OTHER : CURRENT).offloaded)}/${pick()}`;
      try {
        const range = await readSessionOffloaded(store, [CURRENT], requested);
        assert.equal(range.file, `${mine.offloaded}/result.txt`, requested);
        assert.ok(!range.text.includes(SECRET), requested);
        read++;
      } catch (e) {
        assert.ok(e instanceof RecoveryError || e instanceof StorageError, `${JSON.stringify(requested)}: ${String(e)}`);
        assert.ok(!(e as Error).message.includes(SECRET));
      }
      cases++;
    }
    assert.ok(read > 0, 'the real file can be read by some of the paths');
  });
});
