import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Archive, parseArchive } from '../../../src/engine/archive';
import { systemClock } from '../../../src/engine/ports';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { WriterLock } from '../../../src/engine/storage/writerLock';
import { TempFolders } from '../support/tempFolder';
import { seededRandom } from '../tokens/seededRandom';
import { childScript, startChild, waitForLines } from './childProcess';
import { JournaledSession, messageNumber, numberedMessage } from './journaledSession';

const SESSION = 's-20260121-103522-kill';
/** Kills of a saving child; each lands at a random moment (seeded) of its saves. */
const KILL_ROUNDS = 14;
const temp = new TempFolders();
const figures = { kills: 0, sizeLimitKills: 0, tornTails: 0, lockRounds: 0, bigLines: 0 };
after(async () => {
  await temp.cleanUp();
  console.log(
    `      figures: ${figures.kills} kill -9 during saves survived (${figures.tornTails} left a torn line), ` +
      `${figures.sizeLimitKills} appends stopped by a file size limit, ` +
      `${figures.lockRounds} lock rounds contended, ${figures.bigLines} large lines appended by two writers`,
  );
});

const lastSaved = (lines: readonly string[]): number =>
  Math.max(0, ...lines.filter((l) => l.startsWith('saved ')).map((l) => Number(l.slice(6))));

describe('faults: processes killed while saving', function () {
  this.timeout(180_000);

  it(`keeps every saved message and a loadable state through ${KILL_ROUNDS} kill -9 at random moments`, async () => {
    const root = await temp.make();
    const store = new FileStore(root);
    const random = seededRandom(20260121);
    let saved = 0;
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const run = startChild(childScript('saveLoop'), [root, SESSION, '100000']);
      await waitForLines(run, 2 + Math.floor(random() * 25));
      await new Promise((r) => setTimeout(r, random() * 8));
      run.child.kill('SIGKILL');
      const end = await run.ended;
      assert.equal(end.signal, 'SIGKILL', `round ${round}: the child was killed, not failing (${end.stderr})`);
      saved = Math.max(saved, lastSaved(run.lines));
      const folder = path.join(root, sessionPaths(SESSION).folder);
      const tornBefore = fs.readdirSync(folder).filter((n) => n.includes('.torn-')).length;
      const session = await JournaledSession.open(store, SESSION, systemClock);
      const numbers = session.state.active.map(messageNumber);
      assert.deepEqual(
        numbers,
        numbers.map((_, i) => i + 1),
        `round ${round}: messages 1…n in order, once each`,
      );
      assert.ok(numbers.length >= saved, `round ${round}: ${numbers.length} messages kept, ${saved} were reported saved`);
      assert.ok(!session.notices.some((n) => /could not be read|was missing/.test(n)), `round ${round}: ${session.notices.join(' ')}`);
      const archived = parseArchive(fs.readFileSync(path.join(root, sessionPaths(SESSION).archive), 'utf8'));
      assert.deepEqual(archived.messages.map(messageNumber), numbers, `round ${round}: the archive holds the same messages`);
      figures.kills++;
      if (fs.readdirSync(folder).filter((n) => n.includes('.torn-')).length > tornBefore) figures.tornTails++;
    }
  });

  it('leaves no half line when a file size limit (ulimit -f) stops an append, and appends whole lines once it is lifted', async () => {
    for (const blocks of [97, 211, 333]) {
      const root = await temp.make();
      // Node ignores SIGXFSZ, so the write past the limit fails with EFBIG after writing part of the line.
      const run = startChild(childScript('saveLoop'), [root, SESSION, '1000', 'archive-only'], `ulimit -f ${blocks}`);
      const end = await run.ended;
      assert.equal(end.code, 3, `the append failed (${end.signal})`);
      assert.match(end.stderr, /Could not append to .*archive\.jsonl: .*\(the file is larger than the system allows\)/);
      const file = path.join(root, sessionPaths(SESSION).archive);
      const before = parseArchive(fs.readFileSync(file, 'utf8'));
      assert.equal(before.tornTail, false, 'the part written was cut back');
      assert.equal(before.messages.length, lastSaved(run.lines), 'every reported message, and no more');
      const archive = new Archive(new FileStore(root), sessionPaths(SESSION).archive);
      await archive.append([numberedMessage(1)]);
      const after = await archive.read();
      assert.deepEqual(after.unreadableLines, []);
      assert.equal(after.messages.length, before.messages.length + 1);
      figures.sizeLimitKills++;
    }
  });
});

describe('faults: two writers', function () {
  this.timeout(120_000);

  it('lets one process at a time hold a session lock while four contend', async () => {
    const root = await temp.make();
    const lockPath = sessionPaths(SESSION).lock;
    const runs = Array.from({ length: 4 }, () => startChild(childScript('lockContender'), [root, lockPath, '25']));
    const ends = await Promise.all(runs.map((r) => r.ended));
    ends.forEach((end, i) => assert.equal(end.code, 0, `contender ${i}: ${runs[i].lines.join(' ')} ${end.stderr}`));
    const counts = runs.map((r) => /acquired (\d+) refused (\d+)/.exec(r.lines.join('\n')));
    assert.ok(counts.every((m) => m !== null));
    const acquired = counts.reduce((n, m) => n + Number(m?.[1]), 0);
    assert.ok(acquired >= 4, `${acquired} acquisitions`);
    figures.lockRounds += acquired + counts.reduce((n, m) => n + Number(m?.[2]), 0);
  });

  it('takes over the lock of a writer killed with kill -9', async () => {
    const root = await temp.make();
    const lockPath = sessionPaths(SESSION).lock;
    const holder = startChild(childScript('lockContender'), [root, lockPath, 'hold']);
    await waitForLines(holder, 1);
    assert.deepEqual(holder.lines, ['holding']);
    await assert.rejects(
      WriterLock.acquire({ store: new FileStore(root), path: lockPath, purpose: 'test' }),
      /contender \d+ \(process \d+/,
    );
    holder.child.kill('SIGKILL');
    await holder.ended;
    const lock = await WriterLock.acquire({ store: new FileStore(root), path: lockPath, purpose: 'test' });
    assert.equal(lock.current.pid, process.pid);
    await lock.release();
  });

  it('never mixes two writers’ lines of 600 KiB, each appended in one write', async () => {
    const root = await temp.make();
    const file = 'shared.jsonl';
    const runs = ['A', 'B'].map((tag) => startChild(childScript('bigAppender'), [root, file, tag, '8', String(600 * 1024)]));
    for (const end of await Promise.all(runs.map((r) => r.ended))) assert.equal(end.code, 0, end.stderr);
    const lines = fs.readFileSync(path.join(root, file), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 16);
    for (const line of lines) {
      const { tag, body } = JSON.parse(line) as { tag: string; body: string };
      assert.equal(body, tag.repeat(body.length), 'a line holds one writer’s bytes only');
    }
    figures.bigLines += lines.length;
  });
});
