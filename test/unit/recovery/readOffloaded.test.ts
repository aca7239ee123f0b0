import * as assert from 'node:assert/strict';
import { readOffloaded } from '../../../src/engine/recovery/readOffloaded';
import { OffloadedFileNotFoundError, OffloadedPathRefusedError, OffloadedRangeError } from '../../../src/engine/recovery/recoveryErrors';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { ERROR_LINE, LOG_NAME, SESSION, SOURCE_NAME, offloadedPath, storedSession } from './fixtures';

describe('readOffloaded', () => {
  it('reads a line range by bare file name, numbering the lines', async () => {
    const part = await readOffloaded(await storedSession(), SESSION, LOG_NAME, { startLine: ERROR_LINE, endLine: ERROR_LINE + 2 });
    assert.equal(part.file, offloadedPath(LOG_NAME));
    assert.equal(part.name, LOG_NAME);
    assert.equal(part.totalLines, 420);
    assert.equal(part.startLine, ERROR_LINE);
    assert.equal(part.endLine, ERROR_LINE + 2);
    assert.equal(part.truncated, false);
    const lines = part.text.split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0], /^287\t.*connect ECONNREFUSED 127\.0\.0\.1:5432$/);
    assert.equal(lines[2], '289\t    at handleRequest (src/app/server.ts:118:23)');
    assert.deepEqual(part.next, { startLine: ERROR_LINE + 3 });
    assert.match(part.hint, /Lines 287–289 of 420 .* call again with startLine 290\./);
  });

  it('accepts the session-relative path, the store path and the location the offload notice shows', async () => {
    const store = await storedSession();
    for (const path of [`offloaded/${SOURCE_NAME}`, offloadedPath(SOURCE_NAME), store.locate(offloadedPath(SOURCE_NAME))]) {
      const part = await readOffloaded(store, SESSION, path, { lineNumbers: false });
      assert.equal(part.file, offloadedPath(SOURCE_NAME), path);
      assert.match(part.text, /^import \{ createServer \} from 'node:http';/);
      assert.equal(part.endLine, part.totalLines);
      assert.equal(part.next, undefined);
      assert.match(part.hint, /This is the end of the file\./);
    }
  });

  it('stops at maxChars on a line boundary and says where to read on', async () => {
    const store = await storedSession();
    const part = await readOffloaded(store, SESSION, LOG_NAME, { maxChars: 1000 });
    assert.ok(part.text.length <= 1000);
    assert.equal(part.truncated, true);
    assert.equal(part.startLine, 1);
    assert.equal(part.next?.startLine, part.endLine + 1);
    assert.match(part.hint, /Stopped at the 1,000-character limit\. To read on, call again with startLine \d+\./);
    const following = await readOffloaded(store, SESSION, LOG_NAME, { startLine: part.next?.startLine, maxChars: 1000 });
    assert.equal(following.startLine, part.endLine + 1);
  });

  it('keeps within 20,000 characters by default, and reads one overlong line in parts by column', async () => {
    const store = new MemoryStore();
    const minified = `{"items":[${Array.from({ length: 5000 }, (_, i) => `{"id":${i},"name":"item-${i}"}`).join(',')}]}`;
    await store.write(offloadedPath('api.json'), `${minified}\ntrailer\n`);
    const first = await readOffloaded(store, SESSION, 'api.json');
    assert.ok(first.text.length <= 20_000);
    assert.equal(first.truncated, true);
    assert.equal(first.endLine, 1);
    assert.equal(first.next?.startLine, 1);
    const column = first.next?.startColumn ?? 0;
    assert.match(first.hint, new RegExp(`startLine 1 and startColumn ${column}`));
    const second = await readOffloaded(store, SESSION, 'api.json', { startLine: 1, startColumn: column, lineNumbers: false });
    assert.equal(first.text.slice('1\t'.length) + second.text.slice(0, 10), minified.slice(0, column - 1 + 10));
  });

  it('clamps an end past the last line, and refuses a range outside the file', async () => {
    const store = await storedSession();
    const tail = await readOffloaded(store, SESSION, LOG_NAME, { startLine: 419, endLine: 10_000 });
    assert.equal(tail.endLine, 420);
    assert.equal(tail.next, undefined);
    await assert.rejects(readOffloaded(store, SESSION, LOG_NAME, { startLine: 421 }), OffloadedRangeError);
    await assert.rejects(readOffloaded(store, SESSION, LOG_NAME, { startLine: 0 }), OffloadedRangeError);
    await assert.rejects(readOffloaded(store, SESSION, LOG_NAME, { startLine: 20, endLine: 10 }), /the end may not come before the start/);
  });

  it('refuses paths that climb out of or point outside the offloaded folder, before reading anything', async () => {
    const store = await storedSession();
    const refused = [
      `../archive.jsonl`,
      `offloaded/../state.json`,
      `sessions/${SESSION}/offloaded/../../other/offloaded/x.txt`,
      `sessions/s-20260122-090000-other/offloaded/${LOG_NAME}`,
      `sessions/${SESSION}/archive.jsonl`,
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      'offloaded\\..\\state.json',
      '  ',
    ];
    for (const path of refused) {
      await assert.rejects(readOffloaded(store, SESSION, path), OffloadedPathRefusedError, path);
    }
    await assert.rejects(readOffloaded(store, SESSION, '../archive.jsonl'), /contains "\.\."/);
  });

  it('lists the available files when the name does not exist', async () => {
    const error = await readOffloaded(await storedSession(), SESSION, 'missing.txt').catch((e: unknown) => e);
    assert.ok(error instanceof OffloadedFileNotFoundError);
    assert.deepEqual(error.available, [LOG_NAME, SOURCE_NAME]);
    assert.match(error.message, /No offloaded file "missing\.txt" .* Available: 20260121-104107-332_run_server_call_7\.txt, /);
  });

  it('reads an empty offloaded file as empty', async () => {
    const store = new MemoryStore();
    await store.write(offloadedPath('empty.txt'), '');
    const part = await readOffloaded(store, SESSION, 'empty.txt');
    assert.equal(part.totalLines, 0);
    assert.equal(part.text, '');
    assert.equal(part.next, undefined);
  });
});
