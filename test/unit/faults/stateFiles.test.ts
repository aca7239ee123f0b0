import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Store } from '../../../src/engine/ports';
import { loadSession, type LoadedSession } from '../../../src/engine/session/sessionLoad';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { assistant, user } from '../support/builders';
import { FakeClock } from '../support/fakes';
import { sessionRig } from '../support/session';
import { TempFolders } from '../support/tempFolder';

const temp = new TempFolders();
after(() => temp.cleanUp());

/** A session with two exchanges, saved, and one /goal and one /decide. */
async function savedSession(store: Store) {
  const rig = sessionRig({}, store);
  await rig.session.add([user('Build the parser', 'u1'), assistant('On it.', 'a1')]);
  await rig.session.addGoal('parse the header');
  await rig.session.addDecision('use a hand-written lexer');
  await rig.session.add([user('Now the body', 'u2'), assistant('Done.', 'a2')]);
  await rig.session.save();
  return rig;
}

async function load(store: Store, id: string): Promise<LoadedSession> {
  const loaded = await loadSession(id, { store, clock: new FakeClock(Date.UTC(2026, 1, 2, 3, 4, 5)) });
  assert.ok(loaded, 'the session loads');
  return loaded;
}

/** Unusable state files, as the brief's measurements found them. */
const BAD_STATES: readonly (readonly [string, Buffer | string, RegExp])[] = [
  ['cut short', '{"schema":1,"id":"s-20260121-103522-test","title":"Bu', /not valid JSON \(cut short or damaged\)/],
  ['empty', '', /it is empty/],
  ['random bytes', Buffer.from([0x8f, 0x00, 0xff, 0x13, 0x37, 0xc3, 0x28, 0x0a, 0xfe]), /not valid JSON/],
  ['null', 'null', /holds null, not an object/],
  ['a wrong-typed field', '', /field "archivedCount" is missing or of the wrong type/],
];

describe('a session whose state file cannot be used', () => {
  for (const [name, content, reason] of BAD_STATES) {
    it(`(${name}) is rebuilt, never reset silently: the file is kept byte for byte and the notice says what was recovered`, async () => {
      const root = await temp.make();
      const store = new FileStore(root);
      const rig = await savedSession(store);
      const statePath = path.join(root, rig.session.paths.state);
      let bytes = typeof content === 'string' ? Buffer.from(content) : content;
      if (name === 'a wrong-typed field') {
        // The whole state as a base, with no journal after it, and one field of the wrong type.
        const whole = {
          format: 'ctx-state-base',
          schema: 1,
          generation: 1,
          savedAt: 0,
          state: { ...rig.session.state, archivedCount: 'four' },
        };
        bytes = Buffer.from(JSON.stringify(whole));
        await fs.rm(path.join(root, rig.session.paths.journal), { force: true });
      }
      await fs.writeFile(statePath, bytes);
      const loaded = await load(store, rig.session.id);
      assert.match(loaded.notice ?? '', /could not be read, so its context was rebuilt from the archive \(4 messages\)/);
      assert.match(loaded.notice ?? '', reason);
      assert.deepEqual(
        loaded.unreconciled.map((m) => m.id),
        ['u1', 'a1', 'u2', 'a2'],
      );
      const kept = (await fs.readdir(path.dirname(statePath))).filter((n) => n.startsWith('state.unreadable-'));
      assert.deepEqual(kept, ['state.unreadable-20260202-030405-000.json']);
      assert.deepEqual(await fs.readFile(path.join(path.dirname(statePath), kept[0])), bytes);
      assert.match(loaded.notice ?? '', /kept, unchanged, as sessions\/.*state\.unreadable-20260202-030405-000\.json/);
    });
  }

  it('recovers goals, decisions and the context from the latest snapshot, and takes in only the later messages', async () => {
    const store = new MemoryStore();
    const rig = await savedSession(store);
    await rig.session.createSnapshot('before the body');
    await rig.session.add([user('And the footer', 'u3')]);
    await rig.session.save();
    await store.write(rig.session.paths.state, '{"schema":1,');
    const loaded = await load(store, rig.session.id);
    assert.deepEqual(
      loaded.state.ledger.goals.map((g) => g.text),
      ['parse the header'],
    );
    assert.deepEqual(
      loaded.state.ledger.decisions.map((d) => d.text),
      ['use a hand-written lexer'],
    );
    assert.deepEqual(
      loaded.state.active.map((m) => m.id),
      ['u1', 'a1', 'u2', 'a2'],
    );
    assert.equal(loaded.state.archivedCount, 4);
    assert.deepEqual(
      loaded.unreconciled.map((m) => m.id),
      ['u3'],
    );
    assert.match(loaded.notice ?? '', /and the snapshot "before the body"/);
    assert.match(loaded.notice ?? '', /Recovered: the ledger \(1 goal, 1 locked decision\)/);
    assert.match(loaded.notice ?? '', /Not recovered: goals and decisions added with \/goal or \/decide after the snapshot/);
  });

  it('never overwrites a state of a newer schema: it is moved aside and stays as it was after the next saves', async () => {
    const store = new MemoryStore();
    const rig = await savedSession(store);
    const newer = JSON.stringify({ ...JSON.parse((await store.read(rig.session.paths.state)) ?? '{}'), schema: 2, futureField: [1, 2] });
    await store.write(rig.session.paths.state, newer);
    const loaded = await load(store, rig.session.id);
    assert.match(loaded.notice ?? '', /written by a newer version of ctx \(schema 2\)/);
    const kept = (await store.list(rig.session.paths.folder)).filter((n) => n.startsWith('state.newer-schema-'));
    assert.equal(kept.length, 1);
    await loaded.journal.save(loaded.state);
    await loaded.journal.save({ ...loaded.state, title: 'changed' });
    assert.equal(await store.read(`${rig.session.paths.folder}/${kept[0]}`), newer);
    assert.match((await store.read(rig.session.paths.state)) ?? '', /"format":"ctx-state-base"/);
  });

  it('reads a state behind the archive (a crash between archiving and saving) and hands back the missing messages', async () => {
    const store = new MemoryStore();
    const rig = await savedSession(store);
    const paths = rig.session.paths;
    const saved = [await store.read(paths.state), await store.read(paths.journal)];
    await rig.session.add([user('one more', 'u3'), assistant('sure', 'a3')]);
    // The process died after the archive took the messages and before the state was written.
    await store.write(paths.state, saved[0] ?? '');
    if (saved[1] === undefined) await store.remove(paths.journal);
    else await store.write(paths.journal, saved[1]);
    const loaded = await load(store, rig.session.id);
    assert.equal(loaded.state.archivedCount, 4);
    assert.deepEqual(
      loaded.unreconciled.map((m) => m.id),
      ['u3', 'a3'],
    );
    assert.match(loaded.notice ?? '', /2 archived messages were newer than the saved state .* taken in again from the archive/);
  });

  it('loads a state written as a bare object by earlier versions, with nothing to report', async () => {
    const store = new MemoryStore();
    const rig = await savedSession(store);
    const loaded = await load(store, rig.session.id);
    assert.deepEqual(loaded.state, JSON.parse(JSON.stringify(rig.session.state)));
    assert.equal(loaded.notice, undefined);
    assert.deepEqual(loaded.unreconciled, []);
  });

  it('hands back messages of the state the archive lacks, to be archived', async () => {
    const store = new MemoryStore();
    const rig = await savedSession(store);
    const archive = (await store.read(rig.session.paths.archive)) ?? '';
    await store.write(rig.session.paths.archive, archive.split('\n').slice(0, 3).join('\n') + '\n');
    const loaded = await load(store, rig.session.id);
    assert.deepEqual(
      loaded.unarchived.map((m) => m.id),
      ['a2'],
    );
    assert.match(loaded.notice ?? '', /1 message of the saved state was missing from the archive \(a full disk or a crash kept it out\)/);
  });

  it('says there is no session when neither a state nor an archive is stored', async () => {
    assert.equal(await loadSession('s-20260101-000000-none', { store: new MemoryStore(), clock: new FakeClock() }), undefined);
  });

  it('round-trips a state saved through its journal after loading', async () => {
    const store = new MemoryStore();
    const rig = await savedSession(store);
    const loaded = await load(store, rig.session.id);
    await loaded.journal.save({ ...loaded.state, title: 'renamed' });
    await loaded.journal.save({ ...loaded.state, title: 'renamed again' });
    assert.ok(await store.read(sessionPaths(rig.session.id).journal), 'the second save went to the journal');
    const again = await load(store, rig.session.id);
    assert.equal(again.state.title, 'renamed again');
    assert.equal(again.notice, undefined);
  });
});
