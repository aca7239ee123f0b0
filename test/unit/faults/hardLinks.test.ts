/**
 * Files of a session that are another file under a second name: a hard link (which no path check
 * sees, and O_NOFOLLOW does not stop) or a link into another session. None is read, cut or
 * appended to; the session's own files are made again and the user is told.
 */
import { fakeSessionDeps } from '../support/session';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { readOffloaded } from '../../../src/engine/recovery/readOffloaded';
import { OffloadedPathRefusedError } from '../../../src/engine/recovery/recoveryErrors';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { StorageError } from '../../../src/engine/storage/storageError';
import { assistant, user } from '../support/builders';
import { TempFolders } from '../support/tempFolder';

const SESSION = 's-20260121-103522-hard';
const OTHER = 's-20260121-103522-othr';
const SECRET = 'root:x:0:0:the secret outside the store';
const temp = new TempFolders();
after(() => temp.cleanUp());

const deps = fakeSessionDeps;

/** A store with a session of two messages, and a file outside the store. */
async function sessionAndOutsideFile(): Promise<{ root: string; outsideFile: string; folder: string }> {
  const outside = await temp.make('ctx-outside-');
  const outsideFile = path.join(outside, 'passwd');
  await fs.writeFile(outsideFile, `${SECRET}\n`);
  const root = await temp.make();
  const session = ContextSession.create(DEFAULT_OPTIONS, deps(new FileStore(root)), SESSION);
  await session.add([user('Build the parser', 'u1'), assistant('On it.', 'a1')]);
  session.dispose();
  return { root, outsideFile, folder: path.join(root, sessionPaths(SESSION).folder) };
}

/** Replaces a file of the store by a hard link to `target`. */
async function hardLink(target: string, file: string): Promise<void> {
  await fs.rm(file, { force: true });
  await fs.link(target, file);
}

describe('hard links and links at the files of a session', () => {
  it('refuses a hard link in offloaded/ for ctx_read_offloaded and leaves it out of search, with a note', async () => {
    const { root, outsideFile } = await sessionAndOutsideFile();
    const store = new FileStore(root);
    await store.write(`${sessionPaths(SESSION).offloaded}/real.txt`, 'a real offloaded result mentions kubernetes\n');
    await fs.link(outsideFile, path.join(root, sessionPaths(SESSION).offloaded, 'passwd.txt'));
    await assert.rejects(
      readOffloaded(store, SESSION, 'passwd.txt'),
      (e: unknown) => e instanceof OffloadedPathRefusedError && e.reason === 'hardLink' && !e.message.includes(SECRET),
    );
    const index = await RecoveryIndex.build(store, SESSION);
    assert.deepEqual(await index.search('secret'), []);
    assert.equal((await index.search('kubernetes')).length, 1);
    assert.ok(
      index.notes.some((n) => /passwd\.txt/.test(n.message) && /hard link/.test(n.message)),
      JSON.stringify(index.notes),
    );
  });

  it('never cuts or appends to a hard-linked archive: it is moved aside untouched and a private archive is written', async () => {
    const { root, outsideFile, folder } = await sessionAndOutsideFile();
    await fs.appendFile(outsideFile, 'a last line without its newline');
    const before = await fs.readFile(outsideFile, 'utf8');
    await hardLink(outsideFile, path.join(folder, 'archive.jsonl'));

    const session = await ContextSession.open(SESSION, DEFAULT_OPTIONS, deps(new FileStore(root)));
    assert.match(
      session?.warnings.map((w) => w.message).join(' ') ?? '',
      /archive of this session was another file under a second name .* hard link/,
    );
    await session?.add([user('Then the footer', 'u2')]);
    assert.equal(await fs.readFile(outsideFile, 'utf8'), before, 'the outside file is unchanged');
    const archive = path.join(folder, 'archive.jsonl');
    assert.equal((await fs.stat(archive)).nlink, 1, 'the archive is a file of its own');
    assert.deepEqual(
      (await session?.readArchive())?.map((m) => m.id),
      ['u1', 'a1', 'u2'],
    );
    assert.ok(!(await fs.readFile(archive, 'utf8')).includes(SECRET));
    session?.dispose();
    const again = await ContextSession.open(SESSION, DEFAULT_OPTIONS, deps(new FileStore(root)));
    assert.deepEqual(
      again?.messages.map((m) => m.id),
      ['u1', 'a1', 'u2'],
      'the next open finds the new archive and the state agreeing',
    );
    assert.deepEqual(again?.warnings, []);
  });

  it('refuses to append to or repair an archive hard-linked while the session is open, and says why', async () => {
    const { root, outsideFile, folder } = await sessionAndOutsideFile();
    const before = await fs.readFile(outsideFile, 'utf8');
    const store = new FileStore(root);
    await hardLink(outsideFile, path.join(folder, 'archive.jsonl'));
    for (const attempt of [
      () => store.append(sessionPaths(SESSION).archive, ['{"v":1}']),
      () => store.repairTail(sessionPaths(SESSION).archive),
    ]) {
      await assert.rejects(attempt(), (e: unknown) => e instanceof StorageError && e.reason === 'hard-link' && /hard link/.test(e.message));
    }
    assert.equal(await fs.readFile(outsideFile, 'utf8'), before);
  });

  it('sets aside a hard-linked state journal and rebuilds, leaving the outside file as it was', async () => {
    const { root, outsideFile, folder } = await sessionAndOutsideFile();
    const before = await fs.readFile(outsideFile, 'utf8');
    await hardLink(outsideFile, path.join(folder, 'state.journal.jsonl'));
    const session = await ContextSession.open(SESSION, DEFAULT_OPTIONS, deps(new FileStore(root)));
    assert.match(session?.warnings.map((w) => w.message).join(' ') ?? '', /journal is a link or a hard link to another file/);
    await session?.add([user('Then the footer', 'u2')]);
    await session?.addGoal('ship it');
    assert.equal(await fs.readFile(outsideFile, 'utf8'), before);
    assert.deepEqual(
      session?.messages.map((m) => m.id),
      ['u1', 'a1', 'u2'],
    );
  });

  it("never serves another session's archive through a link as this session's messages", async () => {
    const { root, folder } = await sessionAndOutsideFile();
    const other = ContextSession.create(DEFAULT_OPTIONS, deps(new FileStore(root)), OTHER);
    await other.add([user('A private matter of the other session', 'o1')]);
    other.dispose();
    const archive = path.join(folder, 'archive.jsonl');
    await fs.rm(archive);
    await fs.symlink(path.join(root, sessionPaths(OTHER).archive), archive);

    const session = await ContextSession.open(SESSION, DEFAULT_OPTIONS, deps(new FileStore(root)));
    const ids = (await session?.readArchive())?.map((m) => m.id) ?? [];
    assert.ok(!ids.includes('o1'), JSON.stringify(ids));
    assert.deepEqual(ids, ['u1', 'a1']);
    assert.match(session?.warnings.map((w) => w.message).join(' ') ?? '', /is a link to .*othr/);
    const otherArchive = await fs.readFile(path.join(root, sessionPaths(OTHER).archive), 'utf8');
    assert.equal(otherArchive.trim().split('\n').length, 1, "the other session's archive is unchanged");
  });
});
