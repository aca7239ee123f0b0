import * as assert from 'node:assert/strict';
import { ArchiveDocuments, archiveKey } from '../../../src/engine/recovery/archiveDocuments';
import { PassageTable } from '../../../src/engine/recovery/passageTable';

describe('passage table: where each passage of the index stands, as columns', () => {
  it('gives back each passage as it was added, far past its first room, its text only when one was kept', () => {
    const table = new PassageTable();
    for (let id = 1; id <= 3000; id++) {
      table.add(id, { document: id % 7 === 0 ? -id : id, from: id * 10, to: id * 10 + 9, startLine: id, endLine: id + 2 });
    }
    table.add(3001, { document: 5, from: 0, to: 4, startLine: 1, endLine: 1, text: 'kept' });
    assert.equal(table.size, 3001);
    assert.deepEqual(table.get(2801), { document: 2801, from: 28_010, to: 28_019, startLine: 2801, endLine: 2803 });
    assert.deepEqual(table.get(2793), { document: -2793, from: 27_930, to: 27_939, startLine: 2793, endLine: 2795 });
    assert.deepEqual(table.get(3001), { document: 5, from: 0, to: 4, startLine: 1, endLine: 1, text: 'kept' });
  });

  it('forgets a deleted passage: no document, no text, one passage fewer, and deleting it again changes nothing', () => {
    const table = new PassageTable();
    table.add(1, { document: 2, from: 0, to: 4, startLine: 1, endLine: 1, text: 'kept' });
    table.add(2, { document: 2, from: 5, to: 9, startLine: 2, endLine: 2 });
    table.delete(1);
    table.delete(1);
    assert.equal(table.size, 1);
    assert.equal(table.get(1), undefined);
    assert.equal(table.documentOf(1), 0);
    assert.equal(table.documentOf(2), 2);
    assert.equal(table.get(4000), undefined, 'an id never added is no passage');
  });
});

describe('archive documents: the archived messages the index holds, as columns', () => {
  it("shows a message's fields as a hit does, made when asked: its key, its ref, its session, role and tool", () => {
    const documents = new ArchiveDocuments();
    documents.add({ sessionId: 's1', position: 0, messageId: 'u1', role: 'user', first: 1, count: 2, chars: 80 });
    const n = documents.add({
      sessionId: 's1',
      position: 1,
      messageId: 't1',
      role: 'tool',
      toolName: 'Bash',
      first: 3,
      count: 1,
      chars: 40,
    });
    assert.deepEqual(documents.document(n), {
      documentKey: archiveKey('s1', 1),
      source: 'archive',
      ref: 'archive#t1',
      sessionId: 's1',
      messageId: 't1',
      role: 'tool',
      toolName: 'Bash',
    });
    assert.equal('toolName' in documents.document(0), false, 'a message without a tool has no tool name');
    assert.deepEqual(documents.passages(n), { first: 3, count: 1 });
    assert.equal(documents.chars(0), 80);
    assert.equal(documents.size, 2);
  });

  it("hands over a session's messages once when its archive is forgotten, and keeps the other sessions' messages", () => {
    const documents = new ArchiveDocuments();
    documents.add({ sessionId: 'old', position: 0, messageId: 'a', role: 'user', first: 1, count: 1, chars: 5 });
    documents.add({ sessionId: 'new', position: 0, messageId: 'b', role: 'user', first: 2, count: 1, chars: 5 });
    documents.add({ sessionId: 'old', position: 1, messageId: 'c', role: 'assistant', first: 3, count: 1, chars: 5 });
    assert.deepEqual(documents.takeSession('old'), [0, 2]);
    assert.deepEqual(documents.takeSession('old'), []);
    assert.deepEqual(documents.takeSession('new'), [1]);
  });
});
