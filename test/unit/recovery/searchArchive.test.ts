import * as assert from 'node:assert/strict';
import { Archive } from '../../../src/engine/archive';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { UnsafeSessionIdError } from '../../../src/engine/recovery/recoveryErrors';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { message, textBlock } from '../../../src/engine/types';
import { call, result, user } from '../support/builders';
import { sessionRig } from '../support/session';
import { LOG_NAME, OTHER_SESSION, SESSION, offloadedPath, storedSession } from './fixtures';

describe('recovery search: archive, checkpoints and ranking across sources', () => {
  it('finds an archived message and carries its id, role and tool', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    const [best] = await index.search('DATABASE_URL', { sources: ['archive'] });
    assert.equal(best.source, 'archive');
    assert.equal(best.ref, `archive#${best.messageId}`);
    assert.ok(best.messageId === 'm4' || best.messageId === 'm5');
    assert.equal(best.location, undefined);
    const [write] = await index.search('.env.local');
    assert.equal(write.messageId, 'm4');
    assert.equal(write.role, 'assistant');
    assert.equal(write.toolName, 'write_file');
  });

  it('indexes a tool call input by its values, so a written file content is found word by word', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    const [best] = await index.search('POOL_SIZE');
    assert.equal(best.messageId, 'm4');
    assert.match(best.excerpt, /POOL_SIZE=4/);
  });

  it('limits the hits to top', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    assert.ok((await index.search('INFO GET api users')).length > 3);
    assert.equal((await index.search('INFO GET api users', { top: 3 })).length, 3);
    assert.equal((await index.search('INFO GET api users', { top: 1 })).length, 1);
    assert.deepEqual(await index.search('INFO', { top: 0 }), []);
  });

  it('merges offloaded, archive and checkpoint hits into one ranking, best first', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    index.addDocuments('checkpoint', [
      {
        ref: 'checkpoint#1',
        sessionId: SESSION,
        text: 'Goal: fix the 500s. Found: Postgres refuses connections on 5432 (ECONNREFUSED); it listens on 5433.',
      },
    ]);
    const hits = await index.search('connect ECONNREFUSED', { top: 10 });
    const sources = new Set(hits.map((h) => h.source));
    assert.ok(sources.has('offloaded') && sources.has('checkpoint') && sources.has('archive'), `sources: ${[...sources].join(', ')}`);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score, 'scores never increase down the list');
    assert.equal(
      hits[0].location?.file,
      offloadedPath(LOG_NAME),
      'the passage with "connect ECONNREFUSED" written out verbatim comes first',
    );
    assert.equal(hits.find((h) => h.source === 'checkpoint')?.ref, 'checkpoint#1');
  });

  it('filters by source, and replaces a checkpoint added again under the same ref', async () => {
    const index = await RecoveryIndex.build(await storedSession(), SESSION);
    index.addDocuments('checkpoint', [{ ref: 'checkpoint#1', text: 'first summary mentions kubernetes' }]);
    index.addDocuments('checkpoint', [{ ref: 'checkpoint#1', text: 'second summary mentions terraform' }]);
    assert.deepEqual(await index.search('kubernetes'), []);
    assert.deepEqual(await index.search('terraform', { sources: ['archive', 'offloaded'] }), []);
    assert.equal((await index.search('terraform', { sources: ['checkpoint'] })).length, 1);
    index.removeDocument('checkpoint', 'checkpoint#1');
    assert.deepEqual(await index.search('terraform'), []);
  });

  it('searches several sessions and says which session each hit is from', async () => {
    const store = await storedSession();
    await new Archive(store, sessionPaths(OTHER_SESSION).archive).append([
      message('x1', 'user', [textBlock('Please migrate the billing cron to Temporal.')]),
    ]);
    const index = await RecoveryIndex.build(store, [SESSION, OTHER_SESSION]);
    assert.equal((await index.search('Temporal'))[0]?.sessionId, OTHER_SESSION);
    assert.equal((await index.search('ECONNREFUSED'))[0]?.sessionId, SESSION);
  });

  it('takes in messages archived after it was built without indexing the earlier ones twice', async () => {
    const store = await storedSession();
    const index = await RecoveryIndex.build(store, SESSION);
    const before = index.size;
    await new Archive(store, sessionPaths(SESSION).archive).append([message('m6', 'user', [textBlock('Now add a healthcheck endpoint.')])]);
    await index.refresh();
    assert.equal(index.size, before + 1);
    assert.equal((await index.search('healthcheck'))[0]?.messageId, 'm6');
  });

  it('finds a result ContextSession offloaded once, as the file with line numbers, not again as its archived copy', async () => {
    const rig = sessionRig();
    const log = Array.from({ length: 3000 }, (_, i) =>
      i === 2400 ? 'FATAL: OutOfMemoryError in ImageResizer' : `2026-01-21 worker: resized image ${i}.png in 40ms`,
    ).join('\n');
    await rig.session.add([user('resize the images'), call('c1', 'run_job', { job: 'resize' }), result('c1', log)]);
    await rig.session.save();
    const hits = await (await RecoveryIndex.build(rig.store, rig.session.id)).search('OutOfMemoryError');
    assert.equal(hits.length, 1);
    assert.equal(hits[0].source, 'offloaded');
    assert.equal(hits[0].matchLine, 2401);
    assert.equal(hits[0].toolName, 'run_job');
  });

  it('notes archive lines it could not read, and refuses a session id that is not a folder name', async () => {
    const store = await storedSession();
    await store.append(sessionPaths(SESSION).archive, ['{not json']);
    const index = await RecoveryIndex.build(store, SESSION);
    assert.match(index.notes.map((n) => n.message).join('\n'), /Archive lines 6 of session s-20260121-103522-test could not be read/);
    await assert.rejects(RecoveryIndex.build(new MemoryStore(), '../elsewhere'), UnsafeSessionIdError);
  });
});

describe('recovery search: a passage that holds the query as written', () => {
  it('is found among the first three hits even when more than a hundred passages repeat its words more often', async () => {
    const store = new MemoryStore();
    const code = (i: number) =>
      message(`c${i}`, 'tool', [
        textBlock(
          `export class CartStore {\n  addItem(item) { this.items.push(item); }\n}\n// CartStore addItem ${i}: CartStore.items, addItem(x)`,
        ),
      ]);
    const filler = 'The basket keeps what the shopper picked and the totals follow from it. '.repeat(30);
    const answer = message('answer', 'assistant', [
      textBlock(`${filler}Checkout hands the picked goods to \`CartStore.addItem()\`, once per line. ${filler}`),
    ]);
    const messages = [...Array.from({ length: 150 }, (_, i) => code(i)), answer];
    await new Archive(store, sessionPaths(SESSION).archive).append(messages);
    const index = await RecoveryIndex.build(store, SESSION);
    const hits = await index.search('CartStore.addItem()', { top: 3 });
    assert.equal(hits[0]?.messageId, 'answer', `hits: ${hits.map((h) => h.messageId).join(', ')}`);
  });
});
