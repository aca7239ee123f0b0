/**
 * Two VS Code windows on one workspace: two extension host processes open the same session at
 * once through the engine's writer lock. One writes the session; the other is told who does and
 * goes on in a session of its own. Both write at the same time and no message of either is lost.
 */
import { fakeSessionDeps } from '../support/session';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { TempFolders } from '../support/tempFolder';
import { childScript, startChild, waitForLines, type ChildRun } from './childProcess';

const SESSION = 's-20260121-103522-twowin';
/** Rounds (one seed each) and messages per window per round. */
const ROUNDS = 3;
const MESSAGES = 30;
const temp = new TempFolders();
after(async () => {
  await temp.cleanUp();
  console.log(
    `      figures: ${ROUNDS} rounds of two extension hosts on one session, ${2 * ROUNDS * MESSAGES} messages written, none lost`,
  );
});

async function archivedIds(root: string, id: string): Promise<string[]> {
  const session = await ContextSession.open(id, DEFAULT_OPTIONS, fakeSessionDeps(new FileStore(root)));
  assert.ok(session, `session ${id} opens`);
  assert.deepEqual(session.warnings, [], `session ${id} opens with nothing to report`);
  const ids = (await session.readArchive()).map((m) => m.id);
  assert.deepEqual(
    session.messages.map((m) => m.id),
    ids,
    'the state holds what the archive holds',
  );
  session.dispose();
  return ids;
}

const expected = (name: string) => Array.from({ length: MESSAGES }, (_, i) => `${name}-${i + 1}`);
const sessionOf = (run: ChildRun) => run.lines.find((l) => l.startsWith('session '))?.slice('session '.length) ?? '';

describe('two VS Code windows on one session (two extension host processes)', function () {
  this.timeout(120_000);

  it(`one writes the session, the other is told who does and writes its own; ${ROUNDS} seeded rounds lose no message`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const root = await temp.make();
      const windows = ['wina', 'winb'].map((name, i) =>
        startChild(childScript('windowHost'), [root, SESSION, name, String(MESSAGES), String(2400 + round * 10 + i)]),
      );
      for (const w of windows) {
        await waitForLines(w, 1);
        await waitForLines(w, w.lines[0]?.startsWith('refused ') ? 2 : 1);
      }
      fs.writeFileSync(path.join(root, 'go'), '');
      const ends = await Promise.all(windows.map((w) => w.ended));
      ends.forEach((end, i) => assert.equal(end.code, 0, `window ${i}: ${windows[i].lines.join(' | ')} ${end.stderr}`));

      const refused = windows.filter((w) => w.lines.some((l) => l.startsWith('refused ')));
      assert.equal(refused.length, 1, `exactly one window is refused: ${windows.map((w) => w.lines.join(' | ')).join(' / ')}`);
      const holder = windows.find((w) => !refused.includes(w)) as ChildRun;
      assert.match(
        refused[0].lines[0],
        /^refused A VS Code window \(process \d+ on .+, since \d{4}-\d\d-\d\dT[\d:.]+Z\) is writing here; only one writer at a time is allowed\.$/,
      );
      assert.match(refused[0].lines[0], new RegExp(`process ${holder.child.pid}\\b`), 'it names the window that writes');
      assert.equal(sessionOf(holder), SESSION);
      assert.notEqual(sessionOf(refused[0]), SESSION, 'the refused window goes on in a session of its own');

      const holderName = windows.indexOf(holder) === 0 ? 'wina' : 'winb';
      const otherName = holderName === 'wina' ? 'winb' : 'wina';
      assert.deepEqual(
        await archivedIds(root, SESSION),
        expected(holderName),
        'the shared session holds the writing window’s messages, in order',
      );
      assert.deepEqual(
        await archivedIds(root, sessionOf(refused[0])),
        expected(otherName),
        'the other window’s messages are all in its session',
      );
    }
  });
});
