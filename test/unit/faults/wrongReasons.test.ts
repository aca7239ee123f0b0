/**
 * The reason given for a storage failure is the true one: a read-only disk is called read-only,
 * a folder the user may not write is called that, and a folder standing where a state file
 * should be is set aside and the session rebuilt, not a crash.
 */
import { fakeSessionDeps } from '../support/session';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { StorageError } from '../../../src/engine/storage/storageError';
import { assistant, user } from '../support/builders';
import { FaultyFileOps, systemError } from '../support/faultyFileOps';
import { TempFolders } from '../support/tempFolder';

const ID = 's-20260121-103522-rsn';
const temp = new TempFolders();
after(() => temp.cleanUp());

const deps = fakeSessionDeps;

/**
 * Node's file operations under a folder that refuses new entries with `code`, the way Linux and
 * node answer there: a single mkdir fails with the code, a recursive one with ENOENT (node's
 * recursive mkdir reports ENOENT on a read-only mount, as seen on a read-only tmpfs).
 */
class RefusingFolderOps extends FaultyFileOps {
  constructor(folder: string, code: string) {
    super((call) => (call.point === 'open' && call.path.startsWith(folder) ? { code } : undefined));
    this.folder = folder;
    this.code = code;
  }
  private readonly folder: string;
  private readonly code: string;

  override mkdir(target: string, options: { recursive: boolean }): Promise<unknown> {
    if (!target.startsWith(this.folder)) return super.mkdir(target, options);
    return Promise.reject(systemError(options.recursive ? 'ENOENT' : this.code, target));
  }
}

describe('storage failures give their true reason', () => {
  for (const [code, words, reason] of [
    ['EROFS', 'the disk is read-only', 'read-only'],
    ['EACCES', 'permission denied', 'permission-denied'],
  ] as const) {
    it(`a folder that cannot be made (${code}) is reported as "${words}", not as "no such file or folder"`, async () => {
      const root = await temp.make();
      const store = new FileStore(root, new RefusingFolderOps(root, code));
      const failure = await store.write('sessions/s1/state.json', '{}').then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(failure instanceof StorageError, String(failure));
      assert.equal(failure.reason, reason);
      assert.match(failure.message, new RegExp(words));
      assert.doesNotMatch(failure.message, /no such file/);
    });
  }

  for (const file of ['state', 'journal'] as const) {
    it(`a ${file === 'state' ? 'state.json' : 'state journal'} that is a folder is set aside and the session rebuilt from the archive`, async () => {
      const root = await temp.make();
      const session = ContextSession.create(DEFAULT_OPTIONS, deps(new FileStore(root)), ID);
      await session.add([user('Build the parser', 'u1'), assistant('On it.', 'a1')]);
      await session.add([user('Then the footer', 'u2')]);
      session.dispose();
      const target = path.join(root, session.paths[file]);
      await fs.rm(target, { force: true });
      await fs.mkdir(target);
      await fs.writeFile(path.join(target, 'kept.txt'), 'a file of the user');

      const reopened = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
      assert.deepEqual(
        reopened?.messages.map((m) => m.id),
        ['u1', 'a1', 'u2'],
      );
      const notice = reopened?.warnings.map((w) => w.message).join(' ') ?? '';
      assert.match(notice, /is a folder, not a file/);
      const folder = path.dirname(target);
      const aside = await fs.readdir(folder);
      const keptFolder = aside.find((n) => n.startsWith(file === 'state' ? 'state.unreadable-' : 'state.journal.unreadable-'));
      assert.ok(keptFolder, JSON.stringify(aside));
      assert.equal(await fs.readFile(path.join(folder, keptFolder, 'kept.txt'), 'utf8'), 'a file of the user');
      await reopened?.add([user('and the header', 'u3')]);
      reopened?.dispose();
      const again = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
      assert.deepEqual(
        again?.messages.map((m) => m.id),
        ['u1', 'a1', 'u2', 'u3'],
      );
    });
  }
});
