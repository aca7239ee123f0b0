import * as assert from 'node:assert/strict';
import { CancelledError, type Cancellation } from '../../../src/engine/cancellation';
import { BackgroundCheckpoint, type BackgroundCheckpointState } from '../../../src/engine/checkpoints/backgroundCheckpoint';

/** Work that finishes when the test says so. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function recording(c: BackgroundCheckpoint<string>): BackgroundCheckpointState[] {
  const states: BackgroundCheckpointState[] = [];
  c.onDidChangeState((s) => states.push(s));
  return states;
}

describe('BackgroundCheckpoint state machine', () => {
  it('idle → preparing when work starts', () => {
    const c = new BackgroundCheckpoint<string>();
    const states = recording(c);
    assert.equal(c.state, 'idle');
    assert.equal(
      c.start('b1', () => deferred<string>().promise),
      true,
    );
    assert.equal(c.state, 'preparing');
    assert.deepEqual(states, ['preparing']);
  });

  it('preparing → ready when the work finishes', async () => {
    const c = new BackgroundCheckpoint<string>();
    const work = deferred<string>();
    c.start('b1', () => work.promise);
    work.resolve('summary');
    await c.settled();
    assert.equal(c.state, 'ready');
  });

  it('preparing → failed when the work throws, and failed → preparing on the next start', async () => {
    const c = new BackgroundCheckpoint<string>();
    c.start('b1', async () => {
      throw new Error('archive unreadable');
    });
    await c.settled();
    assert.equal(c.state, 'failed');
    assert.match(String(c.lastError), /archive unreadable/);
    assert.equal(
      c.start('b2', () => deferred<string>().promise),
      true,
    );
    assert.equal(c.state, 'preparing');
  });

  it("preparing → cancelled on cancel, which trips the work's cancellation; a late result is ignored", async () => {
    const c = new BackgroundCheckpoint<string>();
    const work = deferred<string>();
    let seen: Cancellation | undefined;
    c.start('b1', (cancellation) => {
      seen = cancellation;
      return work.promise;
    });
    c.cancel();
    assert.equal(c.state, 'cancelled');
    assert.equal(seen?.isCancellationRequested, true);
    work.resolve('too late');
    await c.settled();
    assert.equal(c.state, 'cancelled');
    assert.equal(
      c.take(() => true),
      undefined,
    );
  });

  it('work that stops with CancelledError ends cancelled, not failed', async () => {
    const c = new BackgroundCheckpoint<string>();
    c.start('b1', async () => {
      throw new CancelledError();
    });
    await c.settled();
    assert.equal(c.state, 'cancelled');
  });

  it('ready → applying when a valid result is taken, and applying → idle when finished', async () => {
    const c = new BackgroundCheckpoint<string>();
    c.start('b1', async () => 'summary');
    await c.settled();
    const taken = c.take((basis, value) => basis === 'b1' && value === 'summary');
    assert.deepEqual(taken, { basis: 'b1', value: 'summary' });
    assert.equal(c.state, 'applying');
    c.finish();
    assert.equal(c.state, 'idle');
  });

  it('ready → idle when the result is stale: it is discarded, never applied', async () => {
    const c = new BackgroundCheckpoint<string>();
    c.start('b1', async () => 'summary');
    await c.settled();
    assert.equal(
      c.take((basis) => basis === 'b2'),
      undefined,
    );
    assert.equal(c.state, 'idle');
  });

  it('ignores a second start while preparing, ready or applying: one piece of work at a time', async () => {
    const c = new BackgroundCheckpoint<string>();
    c.start('b1', async () => 'one');
    assert.equal(
      c.start('b2', async () => 'two'),
      false,
    );
    await c.settled();
    assert.equal(
      c.start('b2', async () => 'two'),
      false,
    );
    c.take(() => true);
    assert.equal(
      c.start('b2', async () => 'two'),
      false,
    );
    assert.equal(c.basis, 'b1');
  });

  it('reset cancels a preparation and returns to idle', () => {
    const c = new BackgroundCheckpoint<string>();
    const states = recording(c);
    c.start('b1', () => deferred<string>().promise);
    c.reset();
    assert.equal(c.state, 'idle');
    assert.deepEqual(states, ['preparing', 'cancelled', 'idle']);
  });
});
