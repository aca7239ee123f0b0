import * as assert from 'node:assert/strict';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { ERROR_LINE, HANDLER_LINE, LOG_NAME, SESSION, SOURCE_NAME, offloadedPath, storedSession } from './fixtures';

describe('recovery search: offloaded content', () => {
  it('ranks the passage with an exact error code first, with its line range and the matching line', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    const [best] = await index.search('ECONNREFUSED');
    assert.equal(best.source, 'offloaded');
    assert.ok(best.location, 'an offloaded hit has a location');
    assert.equal(best.location.file, offloadedPath(LOG_NAME));
    assert.ok(best.location.startLine <= ERROR_LINE && ERROR_LINE <= best.location.endLine);
    assert.equal(best.matchLine, ERROR_LINE);
    assert.equal(best.ref, `${offloadedPath(LOG_NAME)}#L${best.location.startLine}-L${best.location.endLine}`);
    assert.match(best.excerpt, /connect ECONNREFUSED 127\.0\.0\.1:5432/);
  });

  it('finds an exact identifier on its own line', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    const [best] = await index.search('handleRequest');
    assert.equal(best.location?.file, offloadedPath(LOG_NAME));
    assert.equal(best.matchLine, HANDLER_LINE);
  });

  it('ranks the passage that has a file path verbatim above passages sharing only its parts', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    const hits = await index.search('src/app/server.ts');
    assert.equal(hits[0].matchLine, HANDLER_LINE);
    assert.match(hits[0].excerpt, /src\/app\/server\.ts:118:23/);
    assert.ok(hits.length > 1, 'passages mentioning src/app/client.ts also match, below it');
    assert.ok(hits.slice(1).every((h) => h.score < hits[0].score));
  });

  it('matches a camelCase part: "request" finds handleRequest', async () => {
    const store = new MemoryStore();
    await store.write(offloadedPath('trace.txt'), 'booting\nat handleRequest (src/app/server.ts:118:23)\ndone\n');
    await store.write(offloadedPath('other.txt'), 'nothing to see here\n');
    const hits = await (await RecoveryIndex.build(store, SESSION)).search('request');
    assert.equal(hits.length, 1);
    assert.equal(hits[0].matchLine, 2);
  });

  it('matches snake_case parts and tolerates a typo in a long term', async () => {
    const store = new MemoryStore();
    await store.write(offloadedPath('env.txt'), 'POOL_SIZE=4\nDATABASE_URL=postgres://localhost:5433/app\n');
    const index = await RecoveryIndex.build(store, SESSION);
    assert.equal((await index.search('database'))[0]?.matchLine, 2);
    assert.equal((await index.search('postgress'))[0]?.matchLine, 2);
  });

  it('finds words in a source file that was offloaded, and says which tool produced it when the state tells', async () => {
    const store = await storedSession();
    await store.write(
      `sessions/${SESSION}/state.json`,
      JSON.stringify(stateWithOffload(offloadedPath(SOURCE_NAME), 'call_9', 'read_file')),
    );
    const [best] = await (await RecoveryIndex.build(store, SESSION)).search('loadConfig');
    assert.equal(best.location?.file, offloadedPath(SOURCE_NAME));
    assert.equal(best.toolName, 'read_file');
  });

  it('gives no hits for an empty query or a word that is nowhere', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    assert.deepEqual(await index.search('   '), []);
    assert.deepEqual(await index.search('xylophone'), []);
  });

  it('takes in files offloaded after it was built, and forgets files that are gone', async () => {
    const store = await storedSession();
    const index = await RecoveryIndex.build(store, SESSION);
    await store.write(offloadedPath('later.txt'), 'a late segfault in workerPool\n');
    await store.remove(offloadedPath(LOG_NAME));
    await index.refresh();
    assert.equal((await index.search('segfault'))[0]?.location?.file, offloadedPath('later.txt'));
    assert.deepEqual(await index.search('ECONNREFUSED', { sources: ['offloaded'] }), []);
  });
});

function stateWithOffload(file: string, callId: string, toolName: string): object {
  return {
    schema: 1,
    id: SESSION,
    title: 'API returns 500',
    createdAt: 0,
    updatedAt: 0,
    active: [],
    archivedCount: 0,
    offloads: [{ callId, toolName, file, tokens: 20_000, savedTokens: 19_000, kind: 'code', isError: false, at: 0, estimated: false }],
    truncations: [],
    history: [],
  };
}
