/**
 * A journal whose last whole line cannot be applied, opened and closed before anything changes,
 * then opened again: every change the journal held up to that line is still there, the user is
 * told exactly what could not come back, and the journal is kept aside.
 */
import { fakeSessionDeps } from '../support/session';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { ContextSession } from '../../../src/engine/session/contextSession';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { user } from '../support/builders';
import { TempFolders } from '../support/tempFolder';

const ID = 's-20260121-103522-jdm';
const temp = new TempFolders();
after(async () => {
  await temp.cleanUp();
  console.log(
    `      figures: ${KINDS.length + 1} kinds of journal damage (${KINDS.map((k) => k.name).join(', ')}, another generation) reopened twice`,
  );
});

const deps = fakeSessionDeps;

/** A session whose journal ends with the line that locked a decision: u1 in the base, then u2, a goal, the decision. */
async function storedSession(): Promise<{ root: string; journal: string; lines: string[] }> {
  const root = await temp.make();
  const session = ContextSession.create(DEFAULT_OPTIONS, deps(new FileStore(root)), ID);
  await session.add([user('Build the parser', 'u1')]);
  await session.add([user('Then the footer', 'u2')]);
  await session.addGoal('ship the parser');
  await session.addDecision('no regular expressions');
  await session.save();
  session.dispose();
  const journal = path.join(root, session.paths.journal);
  const lines = (await fs.readFile(journal, 'utf8')).trim().split('\n');
  assert.ok(lines[lines.length - 1].includes('no regular expressions'), 'the last line locks the decision');
  return { root, journal, lines };
}

type Damage = (last: string) => string[];
const record = (line: string): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>;

const KINDS: readonly { name: string; damage: Damage; decisionKept: boolean; said: RegExp }[] = [
  { name: 'duplicated', damage: (last) => [last, last], decisionKept: true, said: /repeated the line before it and was applied once/ },
  {
    name: 'bit-flipped',
    damage: (last) => [last.replace('"ops"', '"o\u0072s"').replace('{', '[')],
    decisionKept: false,
    said: /could not be read.*may have added goals, decisions/,
  },
  {
    name: 'out of sequence',
    damage: (last) => [JSON.stringify({ ...record(last), n: 9 })],
    decisionKept: false,
    said: /change 9 where change 3 was due.*Not recovered: the changes to goals and decisions/,
  },
  {
    name: 'a __proto__ op',
    damage: (last) => ['{"schema":1,"generation":1,"n":3,"ops":[{"p":["ledger","__proto__","decisions"],"keep":0,"push":[1]}]}', last],
    decisionKept: false,
    said: /could not be applied.*it and the 1 after it were left out.*Not recovered: the changes to goals and decisions/,
  },
  {
    name: 'a huge n',
    damage: (last) => [JSON.stringify({ ...record(last), n: 1e300 })],
    decisionKept: false,
    said: /where change 3 was due.*Not recovered: the changes to goals and decisions/,
  },
];

describe('a journal whose last whole line cannot be applied', () => {
  for (const kind of KINDS) {
    it(`(${kind.name}) keeps every change before it after an open and a close with no change, and says what did not come back`, async () => {
      const { root, journal, lines } = await storedSession();
      const damaged = [...lines.slice(0, -1), ...kind.damage(lines[lines.length - 1])];
      await fs.writeFile(journal, `${damaged.join('\n')}\n`);

      const first = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
      const notice = first?.warnings.map((w) => w.message).join(' ') ?? '';
      assert.match(notice, kind.said);
      assert.match(notice, /the journal was kept as sessions\/.*state\.journal\.unreadable-/);
      if (!kind.decisionKept) assert.doesNotMatch(notice, /Nothing else was lost/);
      first?.dispose();

      const second = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
      assert.deepEqual(
        second?.messages.map((m) => m.id),
        ['u1', 'u2'],
      );
      assert.deepEqual(
        second?.ledger.goals.map((g) => g.text),
        ['ship the parser'],
      );
      assert.deepEqual(
        second?.ledger.decisions.map((d) => d.text),
        kind.decisionKept ? ['no regular expressions'] : [],
      );
      assert.equal(second?.warnings.length, 0, 'the second open finds a whole base and nothing to report');
      const folder = path.dirname(journal);
      const kept = (await fs.readdir(folder)).filter((n) => n.startsWith('state.journal.unreadable-'));
      assert.equal(kept.length, 1);
      assert.equal(await fs.readFile(path.join(folder, kept[0]), 'utf8'), `${damaged.join('\n')}\n`, 'the journal is kept byte for byte');
    });
  }

  it('keeps journal lines of another generation aside and says so, instead of deleting them with the next base', async () => {
    const { root, journal, lines } = await storedSession();
    const foreign = JSON.stringify({ ...record(lines[lines.length - 1]), generation: 7, n: 1 });
    await fs.writeFile(journal, `${[...lines, foreign].join('\n')}\n`);
    const first = await ContextSession.open(ID, DEFAULT_OPTIONS, deps(new FileStore(root)));
    const notice = first?.warnings.map((w) => w.message).join(' ') ?? '';
    assert.match(
      notice,
      /1 journal line of another base \(generation 7; the base is generation 1\) was not applied \(they belong to a base that is not there\)/,
    );
    assert.deepEqual(
      first?.ledger.decisions.map((d) => d.text),
      ['no regular expressions'],
    );
    first?.dispose();
    const folder = path.dirname(journal);
    const kept = (await fs.readdir(folder)).filter((n) => n.startsWith('state.journal.unreadable-'));
    assert.equal(kept.length, 1);
    assert.ok((await fs.readFile(path.join(folder, kept[0]), 'utf8')).includes('"generation":7'), 'the foreign line is kept');
  });
});
