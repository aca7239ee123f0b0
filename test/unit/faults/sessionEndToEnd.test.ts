/**
 * End-to-end storage faults through the public ContextSession API. These pass once ContextSession
 * opens through `loadSession`, saves through the returned `StateJournal`, and takes in
 * `unreconciled` / `unarchived` (see the storage branch's report). Place in test/unit/faults/.
 */
import { fakeSessionDeps } from '../support/session';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { assistant, call, filler, result, user } from '../support/builders';
import { TempFolders } from '../support/tempFolder';

const ID = 's-20260121-103522-e2e';

type StateFiles = Map<string, string | undefined>;

/** The state's base and journal as they are now. */
async function copyStateFiles(root: string, paths: { state: string; journal: string }): Promise<StateFiles> {
  const files: StateFiles = new Map();
  for (const file of [paths.state, paths.journal]) files.set(file, await fs.readFile(path.join(root, file), 'utf8').catch(() => undefined));
  return files;
}

/** Puts the state's base and journal back as they were copied. */
async function restoreStateFiles(root: string, paths: { state: string; journal: string }, files: StateFiles): Promise<void> {
  for (const file of [paths.state, paths.journal]) {
    const text = files.get(file);
    if (text === undefined) await fs.rm(path.join(root, file), { force: true });
    else await fs.writeFile(path.join(root, file), text);
  }
}
const temp = new TempFolders();
after(() => temp.cleanUp());

const deps = fakeSessionDeps;

describe('ContextSession storage end to end', () => {
  it('takes in messages archived after the last save (a crash between archiving and saving)', async () => {
    const root = await temp.make();
    const store = new FileStore(root);
    const first = ContextSession.create(DEFAULT_OPTIONS, deps(store), ID);
    await first.add([user('Build the parser', 'u1'), assistant('On it.', 'a1')]);
    const saved = await copyStateFiles(root, first.paths);
    await first.add([user('Now the footer', 'u2')]);
    // The window closed after the archive took the message and before the state was written.
    await restoreStateFiles(root, first.paths, saved);
    const reopened = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(store));
    assert.deepEqual(
      reopened?.messages.map((m) => m.id),
      ['u1', 'a1', 'u2'],
    );
    assert.match(reopened?.warnings.map((w) => w.message).join(' ') ?? '', /newer than the saved state/);
  });

  it('keeps an unreadable state file and recovers goals and decisions from the latest snapshot', async () => {
    const root = await temp.make();
    const store = new FileStore(root);
    const session = ContextSession.create(DEFAULT_OPTIONS, deps(store), ID);
    await session.add([user('Ship the release', 'u1')]);
    await session.addGoal('tag the version');
    await session.addDecision('no new features');
    await session.createSnapshot('before tagging');
    await session.add([user('and the notes', 'u2')]);
    await session.save();
    const statePath = path.join(root, session.paths.state);
    await fs.writeFile(statePath, '{"format":"ctx-state-base","sch');
    const reopened = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(store));
    assert.deepEqual(
      reopened?.ledger.goals.map((g) => g.text),
      ['tag the version'],
    );
    assert.deepEqual(
      reopened?.ledger.decisions.map((d) => d.text),
      ['no new features'],
    );
    assert.deepEqual(
      reopened?.messages.map((m) => m.id),
      ['u1', 'u2'],
    );
    const kept = (await fs.readdir(path.dirname(statePath))).filter((n) => n.startsWith('state.unreadable-'));
    assert.equal(kept.length, 1);
    await reopened?.save();
    assert.equal(await fs.readFile(path.join(path.dirname(statePath), kept[0]), 'utf8'), '{"format":"ctx-state-base","sch');
  });

  it('never overwrites a state written by a newer ctx', async () => {
    const root = await temp.make();
    const store = new FileStore(root);
    const session = ContextSession.create(DEFAULT_OPTIONS, deps(store), ID);
    await session.add([user('hello', 'u1')]);
    await session.save();
    const newer = JSON.stringify({ format: 'ctx-state-base', schema: 2, generation: 9, savedAt: 0, state: { future: true } });
    await fs.writeFile(path.join(root, session.paths.state), newer);
    const reopened = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(store));
    await reopened?.add([user('more', 'u2')]);
    await reopened?.save();
    const kept = (await fs.readdir(path.join(root, session.paths.folder))).filter((n) => n.startsWith('state.newer-schema-'));
    assert.equal(await fs.readFile(path.join(root, session.paths.folder, kept[0]), 'utf8'), newer);
  });

  it('writes state bytes in proportion to the session, not its square', async () => {
    let stateBytes = 0;
    const inner = new FileStore(await temp.make(), undefined, { sync: false });
    const counting = Object.assign(Object.create(inner) as FileStore, {
      write: async (p: string, c: string) => {
        if (p.includes('/state')) stateBytes += c.length;
        return inner.write(p, c);
      },
      append: async (p: string, l: readonly string[]) => {
        if (p.includes('/state')) stateBytes += l.join('\n').length + l.length;
        return inner.append(p, l);
      },
    });
    const session = ContextSession.create(DEFAULT_OPTIONS, deps(counting), ID);
    for (let i = 0; i < 200; i++) {
      await session.add([call(`c${i}`, 'read_file', { path: `f${i}.ts` }), result(`c${i}`, filler(300))]);
      await session.prepare(1_000_000);
    }
    assert.ok(
      stateBytes < 6 * JSON.stringify(session.state).length,
      `${stateBytes} bytes for a ${JSON.stringify(session.state).length}-byte state`,
    );
  });
});
