import * as assert from 'node:assert/strict';
import type { ProcessProbe } from '../../../src/engine/storage/processProbe';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { DEFAULT_STALE_AFTER_MS, WriterLock, WriterLockedError, type WriterLockOptions } from '../../../src/engine/storage/writerLock';
import { acquireSessionLock } from '../../../src/engine/session/sessionLock';
import { FakeClock } from '../support/fakes';

const PATH = 'sessions/s-20260121-103522-lock/writer.lock';

/** Processes on one host; `dead` ones are gone. */
function probe(pid: number, dead: Set<number> = new Set(), host = 'host-a'): ProcessProbe {
  return { pid, host, isAlive: (p) => !dead.has(p) };
}

function lockOptions(store: MemoryStore, p: ProcessProbe, clock: FakeClock, purpose = 'VS Code window'): WriterLockOptions {
  return { store, path: PATH, purpose, probe: p, clock };
}

describe('writer lock', () => {
  it('refuses a second writer with the owner named in plain words', async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    await WriterLock.acquire(lockOptions(store, probe(100), clock));
    await assert.rejects(
      WriterLock.acquire(lockOptions(store, probe(200), clock, 'ctx replay')),
      (e: unknown) =>
        e instanceof WriterLockedError &&
        e.owner.pid === 100 &&
        /VS Code window \(process 100 on host-a, since 2026-01-21T10:35:22\.000Z\) is writing here; only one writer at a time is allowed/.test(
          e.message,
        ),
    );
  });

  it('lets the next writer in once the first releases', async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const first = await WriterLock.acquire(lockOptions(store, probe(100), clock));
    await first.release();
    assert.equal(await store.read(PATH), undefined);
    const second = await WriterLock.acquire(lockOptions(store, probe(200), clock));
    assert.equal(second.current.pid, 200);
  });

  it('takes over a lock whose process ended on this host', async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    await WriterLock.acquire(lockOptions(store, probe(100), clock));
    const next = await WriterLock.acquire(lockOptions(store, probe(200, new Set([100])), clock));
    assert.equal(next.current.pid, 200);
    assert.deepEqual(await store.list('sessions/s-20260121-103522-lock'), ['writer.lock']);
  });

  it("takes over another host's lock only once its heartbeat is old", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const other = await WriterLock.acquire(lockOptions(store, probe(100, new Set(), 'host-b'), clock));
    clock.advance(DEFAULT_STALE_AFTER_MS / 2);
    assert.equal(await other.heartbeat(), true);
    clock.advance(DEFAULT_STALE_AFTER_MS / 2 + 1);
    await assert.rejects(WriterLock.acquire(lockOptions(store, probe(100, new Set([100])), clock)), WriterLockedError);
    clock.advance(DEFAULT_STALE_AFTER_MS);
    const mine = await WriterLock.acquire(lockOptions(store, probe(200), clock));
    assert.equal(mine.current.host, 'host-a');
    assert.equal(await other.heartbeat(), false, 'the old owner learns it lost the lock');
    await other.release();
    assert.ok(await store.read(PATH), "releasing a lost lock leaves the new owner's lock alone");
  });

  it('takes over an unreadable lock file', async () => {
    const store = new MemoryStore();
    await store.write(PATH, '{"pid": 1');
    const lock = await WriterLock.acquire(lockOptions(store, probe(200), new FakeClock()));
    assert.equal(lock.current.pid, 200);
  });
});

describe('session lock', () => {
  it("lives in the session's folder and refuses a second window", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const id = 's-20260121-103522-win';
    const first = await acquireSessionLock(store, id, { purpose: 'VS Code window', probe: probe(100), clock });
    assert.ok(await store.read(`sessions/${id}/writer.lock`));
    await assert.rejects(acquireSessionLock(store, id, { purpose: 'VS Code window', probe: probe(200), clock }), WriterLockedError);
    await first.release();
    await acquireSessionLock(store, id, { purpose: 'VS Code window', probe: probe(200), clock });
  });
});
