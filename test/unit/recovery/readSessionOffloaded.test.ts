import * as assert from 'node:assert/strict';
import { readSessionOffloaded } from '../../../src/engine/recovery/readSessionOffloaded';
import { NoCurrentSessionError, OffloadedFileNotFoundError, OffloadedPathRefusedError } from '../../../src/engine/recovery/recoveryErrors';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';

const CURRENT = 's-20260301-090000-cur';
const PARENT = 's-20260228-090000-par';
const OTHER = 's-20260227-090000-oth';

async function threeSessions(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.write(`${sessionPaths(CURRENT).offloaded}/mine.txt`, 'current session result\n');
  await store.write(`${sessionPaths(PARENT).offloaded}/carried.txt`, 'parent session result\n');
  await store.write(`${sessionPaths(OTHER).offloaded}/private.txt`, 'another conversation\n');
  return store;
}

describe('reading an offloaded file of the current conversation', () => {
  it("refuses a path into another session's folder, in every form the model could write it", async () => {
    const store = await threeSessions();
    for (const requested of [
      `sessions/${OTHER}/offloaded/private.txt`,
      store.locate(`${sessionPaths(OTHER).offloaded}/private.txt`),
      `/somewhere/sessions/${OTHER}/offloaded/private.txt`,
    ]) {
      await assert.rejects(
        readSessionOffloaded(store, [CURRENT, PARENT], requested),
        (e: unknown) =>
          e instanceof OffloadedPathRefusedError && e.reason === 'otherSession' && !e.message.includes('another conversation'),
        requested,
      );
    }
  });

  it('reads a bare name from the current session, then from the sessions it was started fresh from', async () => {
    const store = await threeSessions();
    assert.match((await readSessionOffloaded(store, [CURRENT, PARENT], 'mine.txt')).text, /current session result/);
    assert.match((await readSessionOffloaded(store, [CURRENT, PARENT], 'carried.txt')).text, /parent session result/);
    assert.match((await readSessionOffloaded(store, [CURRENT, PARENT], `sessions/${PARENT}/offloaded/carried.txt`)).text, /parent/);
  });

  it("never finds another session's file by its bare name, and lists the current session's files", async () => {
    const store = await threeSessions();
    await assert.rejects(
      readSessionOffloaded(store, [CURRENT, PARENT], 'private.txt'),
      (e: unknown) => e instanceof OffloadedFileNotFoundError && e.sessionId === CURRENT && e.available.join() === 'mine.txt',
    );
  });

  it('says plainly that there is no current session', async () => {
    await assert.rejects(readSessionOffloaded(await threeSessions(), [], 'mine.txt'), NoCurrentSessionError);
  });
});
