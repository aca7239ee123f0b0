import * as assert from 'node:assert/strict';
import { parseArchive } from '../../../src/engine/archive';
import { FakeClock } from '../support/fakes';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { call, filler, result, user } from '../support/builders';
import { FaultyFileOps, type FaultCall, type FaultPoint } from '../support/faultyFileOps';
import { sessionRig } from '../support/session';
import { TempFolders } from '../support/tempFolder';
import { seededRandom } from '../tokens/seededRandom';
import { JournaledSession, messageNumber, numberedMessage } from './journaledSession';

const SESSION = 's-20260121-103522-inject';
const CODES = ['ENOSPC', 'EIO', 'EACCES'] as const;
/** The file operations a fault is injected at, one at a time. */
const POINTS: readonly FaultPoint[] = ['write', 'sync', 'rename', 'link', 'open', 'truncate'];
const temp = new TempFolders();
const figures = { journaled: 0, sessions: 0 };
after(async () => {
  await temp.cleanUp();
  console.log(
    `      figures: ${figures.journaled + figures.sessions} faults injected ` +
      `(${figures.journaled} into saves, ${figures.sessions} into ContextSession's storage)`,
  );
});

/** Adds messages 1–6, reopens from disk, adds 7–9: what a session does between two windows. */
async function journaledWorkload(root: string, ops: FaultyFileOps): Promise<JournaledSession> {
  const clock = new FakeClock();
  const store = new FileStore(root, ops);
  let session = await JournaledSession.open(store, SESSION, clock, 4 * 1024);
  for (let n = 1; n <= 6; n++) await session.add(numberedMessage(n));
  session = await JournaledSession.open(store, SESSION, clock, 4 * 1024);
  for (let n = 7; n <= 9; n++) await session.add(numberedMessage(n));
  return session;
}

/** Counts the calls of each kind a fault-free run makes. */
async function callCounts(workload: (root: string, ops: FaultyFileOps) => Promise<unknown>): Promise<Map<FaultPoint, number>> {
  const counts = new Map<FaultPoint, number>();
  const ops = new FaultyFileOps((c: FaultCall) => {
    counts.set(c.point, Math.max(counts.get(c.point) ?? 0, c.number));
    return undefined;
  });
  await workload(await temp.make(), ops);
  return counts;
}

describe('faults: a failure injected at each write', function () {
  this.timeout(300_000);

  it('keeps every message, once and in order, whichever write, sync, rename or open fails and how', async () => {
    const counts = await callCounts(journaledWorkload);
    const random = seededRandom(7);
    for (const point of POINTS) {
      for (let number = 1; number <= (counts.get(point) ?? 0); number++) {
        const code = CODES[Math.floor(random() * CODES.length)];
        const root = await temp.make();
        const ops = new FaultyFileOps((c) =>
          c.point === point && c.number === number
            ? { code, writtenFirst: c.bytes === undefined ? 0 : Math.floor((c.bytes * random()) / 1) }
            : undefined,
        );
        const session = await journaledWorkload(root, ops);
        assert.equal(ops.injected, 1, `${point} #${number}`);
        await session.flush();
        const reopened = await JournaledSession.open(new FileStore(root), SESSION, new FakeClock());
        const what = `${code} at ${point} #${number}: ${reopened.notices.join(' ')}`;
        assert.deepEqual(reopened.state.active.map(messageNumber), [1, 2, 3, 4, 5, 6, 7, 8, 9], what);
        assert.ok(reopened.archiveComplete, what);
        const archived = parseArchive((await new FileStore(root).read(sessionPaths(SESSION).archive)) ?? '');
        assert.deepEqual(archived.messages.map(messageNumber), [1, 2, 3, 4, 5, 6, 7, 8, 9], what);
        figures.journaled++;
      }
    }
  });

  it("never loses a message of ContextSession's archive, whichever of its writes fails", async () => {
    const workload = async (root: string, ops: FaultyFileOps) => {
      const rig = sessionRig({}, new FileStore(root, ops));
      await rig.session.add([user('collect the logs', 'u1'), call('c1', 'fetch_logs', {}), result('c1', filler(20_000))]);
      await rig.session.prepare(30_000);
      await rig.session.addGoal('find the failing job');
      await rig.session.createSnapshot('after logs').catch(() => undefined);
      await rig.session.add([user('and the metrics', 'u2'), call('c2', 'fetch_metrics', {}), result('c2', filler(18_000, 'metric'))]);
      await rig.session.prepare(30_000);
      return rig;
    };
    const counts = await callCounts(workload);
    const random = seededRandom(11);
    for (const point of POINTS) {
      for (let number = 1; number <= (counts.get(point) ?? 0); number++) {
        const code = CODES[Math.floor(random() * CODES.length)];
        let armed = true;
        const ops = new FaultyFileOps((c) => {
          if (!armed || c.point !== point || c.number !== number) return undefined;
          return { code, writtenFirst: c.bytes === undefined ? 0 : Math.floor(c.bytes / 2) };
        });
        const root = await temp.make();
        const rig = await workload(root, ops);
        armed = false;
        await rig.session.add([user('done', 'u3')]);
        const what = `${code} at ${point} #${number}`;
        assert.ok(rig.session.archiveComplete, what);
        const ids = (await rig.session.readArchive()).map((m) => m.id);
        assert.equal(ids.length, 7, `${what}: ${ids.join(',')}`);
        assert.deepEqual(
          ids.filter((id) => id.startsWith('u')),
          ['u1', 'u2', 'u3'],
          what,
        );
        figures.sessions++;
      }
    }
  });
});
