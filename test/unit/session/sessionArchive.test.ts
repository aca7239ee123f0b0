import * as assert from 'node:assert/strict';
import { CACHED_MESSAGES } from '../../../src/engine/session/archiveLines';
import { SessionArchive } from '../../../src/engine/session/sessionArchive';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';

/** A memory store that records the whole and the ranged reads of each file. */
class CountingStore extends MemoryStore {
  readonly ranged: string[] = [];
  readonly whole: string[] = [];

  override read(path: string): Promise<string | undefined> {
    this.whole.push(path);
    return super.read(path);
  }

  override readRange(path: string, start: number, length: number): Promise<string | undefined> {
    this.ranged.push(path);
    return super.readRange(path, start, length);
  }
}

/** `count` messages of a tool loop, some with text outside ASCII so byte places differ from character places. */
function session(count: number, prefix = 'm'): Message[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `${prefix}${i}`;
    if (i % 3 === 0) return user(`step ${i}: café → naïve ✓ ${'x'.repeat(i % 7)}`, id);
    if (i % 3 === 1) return { ...call(`c${prefix}${i}`, 'Bash', { command: `echo ${i}` }), id };
    return { ...result(`c${prefix}${i - 1}`, `output ${i} — ünïcödé\nline two`), id };
  });
}

describe('session archive: messages read back from the file', () => {
  it('reads every message back as it was appended, by position and by id, after more were appended than the cache keeps', async () => {
    const store = new CountingStore();
    const archive = new SessionArchive(store, sessionPaths('s1'), undefined);
    const messages = session(CACHED_MESSAGES * 2 + 10);
    await archive.append(messages.slice(0, 5));
    const early = await archive.read();
    for (let i = 5; i < messages.length; i += 50) await archive.append(messages.slice(i, i + 50));
    const archived = await archive.read();
    assert.equal(early.count, 5, 'a view counts what was archived when it was made');
    assert.equal(archived.count, messages.length);
    assert.deepEqual(await archived.read(0, archived.count), messages);
    store.ranged.length = 0;
    assert.deepEqual(await archived.byId('m3'), messages[3]);
    assert.ok(store.ranged.length > 0, 'an early message is read from the file: the cache holds only the newest');
    assert.equal(store.whole.length, 1, 'the file is read whole once, when the archive is first read: each line is then read at its place');
    assert.deepEqual(await archived.byIds(['m7', 'missing', 'm1']), [messages[7], undefined, messages[1]]);
    assert.equal(archived.position('m7'), 8);
    assert.equal(archived.position('missing'), 0);
  });

  it('reads a span of lines that follow each other in one read of the file', async () => {
    const store = new CountingStore();
    const archive = new SessionArchive(store, sessionPaths('s1'), undefined);
    const messages = session(CACHED_MESSAGES * 3);
    await archive.append(messages);
    const archived = await archive.read();
    store.ranged.length = 0;
    assert.deepEqual(await archived.read(10, 60), messages.slice(10, 60));
    assert.equal(store.ranged.length, 1);
  });

  it("reads a session started fresh from another through to the parent's archive, the parent's messages first", async () => {
    const store = new MemoryStore();
    const parent = session(CACHED_MESSAGES + 20, 'p');
    await new SessionArchive(store, sessionPaths('parent'), undefined).append(parent);
    const child = new SessionArchive(store, sessionPaths('child'), 'parent');
    const own = [user('next', 'c1'), assistant('done', 'c2')];
    await child.append(own);
    const archived = await child.read();
    assert.deepEqual(await archived.read(0, archived.count), [...parent, ...own]);
    assert.equal(archived.position('c1'), parent.length + 1);
    await child.append([user('later', 'c3')]);
    assert.deepEqual(await (await child.read()).byId('c3'), user('later', 'c3'));
  });

  it('finds the messages again when the file was changed under it (a torn line moved aside before the next append)', async () => {
    const store = new MemoryStore();
    const paths = sessionPaths('s1');
    const messages = session(CACHED_MESSAGES + 40);
    const first = new SessionArchive(store, paths, undefined);
    await first.append(messages.slice(0, 20));
    // A crash left half a line at the end; the next writer moves it aside before it appends.
    await store.write(paths.archive, `${(await store.read(paths.archive)) ?? ''}{"v":1,"message":{"id":"torn`);
    const reopened = new SessionArchive(store, paths, undefined);
    const before = await reopened.read();
    assert.equal(before.count, 20);
    await reopened.append(messages.slice(20));
    const archived = await reopened.read();
    assert.deepEqual(await archived.read(0, archived.count), messages);
    // Another line written before the session's first one (nothing ctx does, but a file can be edited): found again.
    await store.write(paths.archive, `\n\n${(await store.read(paths.archive)) ?? ''}`);
    assert.deepEqual(await archived.byId('m2'), messages[2]);
  });
});
