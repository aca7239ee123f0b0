/**
 * A session closed while its archive could not be written (a full disk), opened again: the
 * messages the archive misses are archived at the open, and the notice says so only when they
 * were; a state damaged after that is rebuilt with them.
 */
import { fakeSessionDeps } from '../support/session';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { assistant, user } from '../support/builders';
import { FaultyFileOps } from '../support/faultyFileOps';
import { TempFolders } from '../support/tempFolder';

const ID = 's-20260121-103522-full';
const temp = new TempFolders();
after(() => temp.cleanUp());

const deps = fakeSessionDeps;

/** A full disk for the archive only: the state is saved, the archive refuses every append. */
const fullArchive = (full: () => boolean) =>
  new FaultyFileOps((c) => (full() && c.point === 'write' && c.path.endsWith('archive.jsonl') ? { code: 'ENOSPC' } : undefined));

/** A session whose last message reached the state but not the archive; returns the storage root. */
async function closedOnFullDisk(): Promise<{ root: string; archive: string; state: string }> {
  const root = await temp.make();
  let full = false;
  const session = ContextSession.create(
    DEFAULT_OPTIONS,
    deps(
      new FileStore(
        root,
        fullArchive(() => full),
      ),
    ),
    ID,
  );
  await session.add([user('Build the parser', 'u1'), assistant('On it.', 'a1')]);
  full = true;
  await session.add([user('Then the footer', 'u2')]);
  assert.equal(session.archiveComplete, false);
  session.dispose();
  return { root, archive: path.join(root, session.paths.archive), state: path.join(root, session.paths.state) };
}

const ids = async (file: string) =>
  (await fs.readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { message: { id: string } }).message.id);

describe('reopening after a full disk', () => {
  it('archives the messages the archive missed at the open, before any new message, and says so', async () => {
    const { root, archive } = await closedOnFullDisk();
    const reopened = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
    assert.deepEqual(await ids(archive), ['u1', 'a1', 'u2'], 'in the archive file at once');
    assert.equal(reopened?.archiveComplete, true);
    assert.match(reopened?.warnings.map((w) => w.message).join(' ') ?? '', /The message missing from the archive is archived now/);
    reopened?.dispose();
    const again = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
    assert.deepEqual(
      again?.messages.map((m) => m.id),
      ['u1', 'a1', 'u2'],
      'the next open takes nothing in twice',
    );
    assert.deepEqual(again?.warnings, []);
  });

  it('says truthfully that the messages are still waiting when the disk is still full at the open', async () => {
    const { root, archive } = await closedOnFullDisk();
    const reopened = await ContextSession.open(
      ID,
      DEFAULT_OPTIONS,
      deps(
        new FileStore(
          root,
          fullArchive(() => true),
        ),
      ),
    );
    const notice = reopened?.warnings.map((w) => w.message).join(' ') ?? '';
    assert.doesNotMatch(notice, /archived now/);
    assert.match(notice, /could not be archived yet \(.*disk is full.*\); it stays in the context/);
    assert.deepEqual(await ids(archive), ['u1', 'a1']);
    assert.equal(reopened?.archiveComplete, false);
  });

  it('a state damaged after the reopen is rebuilt with the message that waited', async () => {
    const { root, state } = await closedOnFullDisk();
    (await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root))))?.dispose();
    await fs.writeFile(state, '{"format":"ctx-state-base","sch');
    const rebuilt = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
    assert.match(rebuilt?.warnings.map((w) => w.message).join(' ') ?? '', /rebuilt from the archive/);
    assert.deepEqual(
      rebuilt?.messages.map((m) => m.id),
      ['u1', 'a1', 'u2'],
    );
  });
});
