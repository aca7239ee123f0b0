import * as assert from 'node:assert/strict';
import { archivedRunOf } from '../../../src/engine/model/archivedMessages';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import type { SessionContent } from '../../../src/engine/recovery/sessionContent';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';

const SESSION = 's-20260101-000000-abcdef';
const FOLDER = `sessions/${SESSION}/offloaded`;

/** A session's content as a live session gives it, recording which messages the index reads back. */
function contentOf(
  messages: readonly Message[],
  offloaded: readonly { name: string; callId: string }[],
  readIds: string[],
): SessionContent {
  return {
    offloadedFolder: FOLDER,
    offloadedNames: offloaded.map((o) => o.name),
    skippedEntries: [],
    origins: new Map(offloaded.map((o) => [o.name, { callId: o.callId, toolName: 'Bash' }])),
    archivePath: `sessions/${SESSION}/archive.jsonl`,
    messages: archivedRunOf(messages),
    readMessages: (ids) => {
      readIds.push(...ids);
      return Promise.resolve(ids.map((id) => messages.find((m) => m.id === id)));
    },
    unreadableLines: [],
  };
}

describe('recovery search: passage texts read back when ranked', () => {
  it('reads a ranked message back and shows its passage as indexed, an offloaded result as the pointer it was indexed as', async () => {
    const store = new MemoryStore();
    await store.write(`${FOLDER}/run.txt`, 'line one\nstack trace: ZeroDivisionError in ledger.py\nline three\n');
    const messages = [
      user('Why does the nightly ledger job crash?', 'm1'),
      { ...call('c1', 'Bash', { command: 'python ledger.py' }), id: 'm2' },
      { ...result('c1', 'stack trace: ZeroDivisionError in ledger.py'), id: 'm3' },
      assistant('The quarterly totals divide by a zero headcount.', 'm4'),
    ];
    const readIds: string[] = [];
    const index = RecoveryIndex.forSession(store, SESSION);
    await index.takeIn(SESSION, contentOf(messages, [{ name: 'run.txt', callId: 'c1' }], readIds));
    assert.equal(readIds.length, 0, 'indexing reads nothing back');

    const [answer] = await index.search('quarterly headcount');
    assert.equal(answer.messageId, 'm4');
    assert.match(answer.excerpt, /divide by a zero headcount/);
    assert.ok(readIds.includes('m4'), 'the ranked message was read back');

    const hits = await index.search('ZeroDivisionError');
    assert.equal(hits[0].location?.file, `${FOLDER}/run.txt`);
    assert.equal(hits[0].matchLine, 2);
    assert.ok(!hits.some((h) => h.messageId === 'm3'), 'the offloaded result was indexed as its file, not twice');
    const [pointer] = await index.search('indexed as its offloaded file', { sources: ['archive'] });
    assert.equal(pointer.messageId, 'm3');
    assert.match(pointer.excerpt, /result c1 is indexed as its offloaded file/);
  });

  it('leaves out a passage whose message can no longer be read back', async () => {
    const messages = [user('Rotate the staging credentials tonight.', 'm1')];
    const index = RecoveryIndex.forSession(new MemoryStore(), SESSION);
    const content = contentOf(messages, [], []);
    await index.takeIn(SESSION, { ...content, readMessages: (ids) => Promise.resolve(ids.map(() => undefined)) });
    assert.deepEqual(await index.search('staging credentials'), []);
  });
});

describe('recovery search: texts read back are kept for the next searches', () => {
  it('ranks the same message and offloaded file again without reading them back again', async () => {
    const store = new MemoryStore();
    await store.write(`${FOLDER}/run.txt`, 'line one\nstack trace: ZeroDivisionError in ledger.py\nline three\n');
    const messages = [
      { ...call('c1', 'Bash', { command: 'python ledger.py' }), id: 'm1' },
      { ...result('c1', 'stack trace: ZeroDivisionError in ledger.py'), id: 'm2' },
      assistant('The quarterly totals divide by a zero headcount.', 'm3'),
    ];
    const readIds: string[] = [];
    const index = RecoveryIndex.forSession(store, SESSION);
    await index.takeIn(SESSION, contentOf(messages, [{ name: 'run.txt', callId: 'c1' }], readIds));
    const fileReads: string[] = [];
    const read = store.read.bind(store);
    store.read = (path) => {
      fileReads.push(path);
      return read(path);
    };

    for (let i = 0; i < 3; i++) {
      assert.equal((await index.search('quarterly headcount'))[0].messageId, 'm3');
      assert.equal((await index.search('ZeroDivisionError'))[0].matchLine, 2);
    }
    assert.deepEqual(readIds, ['m3'], 'the message was read back once');
    assert.deepEqual(fileReads, [`${FOLDER}/run.txt`], 'the offloaded file was read once');
  });

  it('never answers from a file that left the index', async () => {
    const store = new MemoryStore();
    await store.write(`${FOLDER}/run.txt`, 'stack trace: ZeroDivisionError in ledger.py\n');
    const index = RecoveryIndex.forSession(store, SESSION);
    const content = contentOf([], [{ name: 'run.txt', callId: 'c1' }], []);
    await index.takeIn(SESSION, content);
    assert.equal((await index.search('ZeroDivisionError')).length, 1);
    await index.takeIn(SESSION, { ...content, offloadedNames: [] });
    assert.deepEqual(await index.search('ZeroDivisionError'), []);
  });
});
