import * as assert from 'node:assert/strict';
import type { Store } from '../../../src/engine/ports';
import { isPlainObject } from '../../../src/engine/storage/jsonDiff';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { StateJournal, type JournalLoad, type StateJournalOptions, type StateReading } from '../../../src/engine/storage/stateJournal';
import { FakeClock } from '../support/fakes';
import { seededRandom } from '../tokens/seededRandom';
import { initialFuzzState, jsonForm, randomUpdate, type FuzzState } from './randomState';

const PATHS = { base: 's/state.json', journal: 's/state.journal.jsonl' };

/** Any object is a state; a `schema` above 1 is a newer one. */
function readFuzz(value: unknown): StateReading<FuzzState> {
  if (!isPlainObject(value)) return { kind: 'unreadable', reason: 'not an object' };
  if (typeof value.schema === 'number' && value.schema > 1) return { kind: 'newer', schema: value.schema };
  return { kind: 'state', state: value };
}

function options(store: Store, extra: Partial<StateJournalOptions<FuzzState>> = {}): StateJournalOptions<FuzzState> {
  return { store, paths: PATHS, read: readFuzz, clock: new FakeClock(), ...extra };
}

function loaded(load: JournalLoad<FuzzState>): Extract<JournalLoad<FuzzState>, { kind: 'loaded' }> {
  assert.equal(load.kind, 'loaded', JSON.stringify(load));
  return load as Extract<JournalLoad<FuzzState>, { kind: 'loaded' }>;
}

/** A state that grows like a session: each save adds one message to a long list. */
function grow(state: FuzzState, i: number): FuzzState {
  const active = state.active as unknown[];
  return { ...state, count: i, active: [...active, { id: `m${i}`, text: `message ${i} `.repeat(10) }] };
}

describe('state journal', () => {
  it('writes the base first, then one line per save holding only what changed', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store));
    let state = initialFuzzState();
    assert.equal((await journal.save(state)).kind, 'base');
    state = grow(state, 1);
    const second = await journal.save(state);
    assert.equal(second.kind, 'record');
    const line = (await store.read(PATHS.journal)) ?? '';
    assert.equal(line.split('\n').length, 2);
    assert.ok(line.includes('message 1') && !line.includes('"ledger"'), 'only the new message and the count are written');
    assert.equal((await journal.save(state)).kind, 'unchanged');
    assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(state));
  });

  it('reads back exactly the last saved state after random immutable updates, across compactions', async () => {
    for (let run = 0; run < 20; run++) {
      const random = seededRandom(77 + run);
      const store = new MemoryStore();
      const journal = StateJournal.create(options(store, { minCompactBytes: 2_000 }));
      let state: FuzzState = initialFuzzState();
      for (let u = 0; u < 60; u++) {
        state = randomUpdate(random, state) as FuzzState;
        if (!isPlainObject(state)) state = initialFuzzState();
        if (state.schema !== 1) state = { ...state, schema: 1 };
        await journal.save(state);
      }
      assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(state), `run ${run}`);
      assert.ok(journal.figures.bases > 1, 'the journal was compacted at least once');
    }
  });

  it('writes bytes in proportion to the changes: 1,000 saves of a growing state cost a few times its final size', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store));
    let state = initialFuzzState();
    let rewriteBytes = 0;
    for (let i = 1; i <= 1000; i++) {
      state = grow(state, i);
      await journal.save(state);
      rewriteBytes += JSON.stringify(state).length;
    }
    const finalSize = JSON.stringify(state).length;
    assert.ok(journal.figures.bytesWritten < 4 * finalSize, `${journal.figures.bytesWritten} bytes for a ${finalSize}-byte state`);
    assert.ok(rewriteBytes > 100 * journal.figures.bytesWritten, 'rewriting the whole state each time writes far more');
  });

  it('writes a list kept to its newest entries as its change only, on lines whose schema versions that cannot apply them refuse', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store));
    let state: FuzzState = { ...initialFuzzState(), active: [] };
    for (let i = 1; i <= 1000; i++) {
      const active = (grow(state, i).active as unknown[]).slice(-300);
      state = { ...state, active };
      await journal.save(state);
    }
    const finalSize = JSON.stringify(state).length;
    assert.ok(journal.figures.bytesWritten < 8 * finalSize, `${journal.figures.bytesWritten} bytes for a ${finalSize}-byte state`);
    const lines = ((await store.read(PATHS.journal)) ?? '').trim().split('\n');
    assert.equal((JSON.parse(lines[lines.length - 1]) as { schema: number }).schema, 2, 'a line that drops entries says so');
    assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(state));
    const mislabelled = JSON.stringify({ ...(JSON.parse(lines[lines.length - 1]) as object), schema: 1 });
    await store.write(PATHS.journal, [...lines.slice(0, -1), mislabelled].join('\n') + '\n');
    const load = loaded(await StateJournal.load(options(store)));
    assert.ok(
      load.notes.some((n) => n.includes('line')),
      JSON.stringify(load.notes),
    );
  });

  it('starts a new base when the journal outgrows the base, and sets aside lines of the old base left by a crash, saying so', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store, { minCompactBytes: 0, compactRatio: 1 }));
    let state: FuzzState = { ...initialFuzzState(), flag: 0 };
    await journal.save(state);
    for (let i = 1; i <= 40; i++) {
      state = { ...state, flag: 'x'.repeat(50) + i };
      await journal.save(state);
    }
    assert.ok(journal.figures.bases > 1);
    const journalNow = (await store.read(PATHS.journal)) ?? '';
    // A crash between writing the new base and removing the old journal leaves old lines in front.
    const staleLine = JSON.stringify({ schema: 1, generation: 1, n: 1, ops: [{ p: ['flag'], set: 'stale' }] });
    await store.write(PATHS.journal, `${staleLine}\n${journalNow}`);
    const back = loaded(await StateJournal.load(options(store)));
    assert.deepEqual(back.state, jsonForm(state));
    assert.match(
      back.notes.join(),
      /1 journal line of another base \(generation 1; .*\) was not applied \(a save was interrupted after writing the base/,
    );
    assert.match(back.notes.join(), /the journal was kept as/);
  });

  it('ignores a torn last line and says so; the next save starts on a line of its own', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store));
    const first = grow(initialFuzzState(), 1);
    await journal.save(initialFuzzState());
    await journal.save(first);
    const whole = (await store.read(PATHS.journal)) ?? '';
    await store.write(PATHS.journal, `${whole}{"schema":1,"generation":1,"n":2,"ops":[{"p":["co`);
    const back = loaded(await StateJournal.load(options(store)));
    assert.deepEqual(back.state, jsonForm(first));
    assert.match(back.notes.join(), /last line was cut short .* ignored/);
    const second = grow(back.state, 2);
    await back.journal.save(second);
    assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(second));
  });

  it('stops at a damaged line in the middle, keeps the journal aside, and writes a whole base at once', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store));
    let state = initialFuzzState();
    await journal.save(state);
    for (let i = 1; i <= 3; i++) await journal.save((state = grow(state, i)));
    const lines = ((await store.read(PATHS.journal)) ?? '').split('\n');
    lines[1] = '{"schema":1,"generation":1,"n":2,"ops":[{"p":["active"],"keep":99,"push":[]}]}';
    await store.write(PATHS.journal, lines.join('\n'));
    const back = loaded(await StateJournal.load(options(store)));
    assert.equal((back.state.active as unknown[]).length, 1);
    assert.match(back.notes.join(), /journal line 2 could not be applied .* it and the 1 after it were left out/);
    assert.match(back.notes.join(), /kept as s\/state\.journal\.unreadable-\d{8}-\d{6}-\d{3}\.jsonl/);
    assert.equal(await store.read(PATHS.journal), undefined, 'the new base replaced the journal');
    assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(back.state));
    assert.equal((await back.journal.save(grow(back.state, 9))).kind, 'record');
  });

  it('reports a newer schema in the base or in a journal line instead of reading it', async () => {
    const store = new MemoryStore();
    await store.write(PATHS.base, JSON.stringify({ format: 'ctx-state-base', schema: 2, generation: 1, savedAt: 0, state: {} }));
    assert.deepEqual(await StateJournal.load(options(store)), { kind: 'newer', file: 'base', schema: 2 });
    const journal = StateJournal.create(options(store));
    await journal.save(initialFuzzState());
    await store.append(PATHS.journal, [JSON.stringify({ schema: 3, generation: 1, n: 1, ops: [] })]);
    assert.deepEqual(await StateJournal.load(options(store)), { kind: 'newer', file: 'journal', schema: 3 });
    await store.write(PATHS.base, JSON.stringify({ schema: 5 }));
    await store.remove(PATHS.journal);
    assert.deepEqual(await StateJournal.load(options(store)), { kind: 'newer', file: 'base', schema: 5 });
  });

  it('reads a bare state written before journals existed, and writes a base on the next save', async () => {
    const store = new MemoryStore();
    await store.write(PATHS.base, JSON.stringify({ schema: 1, title: 'old' }));
    const back = loaded(await StateJournal.load(options(store)));
    assert.equal(back.state.title, 'old');
    assert.equal((await back.journal.save({ ...back.state, title: 'new' })).kind, 'base');
  });

  it('writes a wanted base on the next save even when the state did not change', async () => {
    const store = new MemoryStore();
    await store.write(PATHS.base, JSON.stringify({ schema: 1, title: 'old' }));
    const back = loaded(await StateJournal.load(options(store)));
    assert.equal((await back.journal.save(back.state)).kind, 'base');
    assert.equal((await back.journal.save(back.state)).kind, 'unchanged');
  });

  it('when the new base cannot be written at load, keeps the journal in place and writes the base with the next save', async () => {
    let full = false;
    const store = new (class extends MemoryStore {
      override async write(p: string, c: string): Promise<void> {
        if (full && p === PATHS.base) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return super.write(p, c);
      }
    })();
    const journal = StateJournal.create(options(store));
    let state = initialFuzzState();
    await journal.save(state);
    for (let i = 1; i <= 2; i++) await journal.save((state = grow(state, i)));
    const lines = ((await store.read(PATHS.journal)) ?? '').trim().split('\n');
    await store.write(PATHS.journal, `${[...lines, lines[1]].join('\n')}\n`);
    full = true;
    const back = loaded(await StateJournal.load(options(store)));
    assert.match(back.notes.join(), /the new base could not be written yet .* written with the next save/);
    assert.ok(await store.read(PATHS.journal), 'the journal stays until a base holds its changes');
    full = false;
    assert.equal((await back.journal.save(back.state)).kind, 'base');
    const again = loaded(await StateJournal.load(options(store)));
    assert.deepEqual(again.state, jsonForm(state));
    assert.deepEqual(again.notes, []);
  });

  it('says why a base cannot be read: empty, cut short, not an object', async () => {
    const store = new MemoryStore();
    for (const [text, reason] of [
      ['', /empty/],
      ['{"format":"ctx-state-base","sch', /not valid JSON/],
      ['null', /holds null, not an object/],
      ['[1,2]', /holds a list/],
    ] as const) {
      await store.write(PATHS.base, text);
      const load = await StateJournal.load(options(store));
      assert.equal(load.kind, 'unreadable');
      assert.match(load.kind === 'unreadable' ? load.reason : '', reason);
    }
  });

  it('after a failed append, the next save writes a whole base, so nothing half-written is built on', async () => {
    let failing = false;
    const store = new (class extends MemoryStore {
      override async append(p: string, l: readonly string[]): Promise<void> {
        if (failing) {
          await super.append(p, [l[0].slice(0, 20)]);
          throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
        }
        return super.append(p, l);
      }
    })();
    const journal = StateJournal.create(options(store));
    let state = initialFuzzState();
    await journal.save(state);
    failing = true;
    await assert.rejects(journal.save((state = grow(state, 1))), /ENOSPC/);
    failing = false;
    assert.equal((await journal.save((state = grow(state, 2)))).kind, 'base');
    assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(state));
  });

  it('runs saves one at a time, so saves started together read back as the last one', async () => {
    const store = new MemoryStore();
    const journal = StateJournal.create(options(store));
    let state = initialFuzzState();
    const states = [state];
    for (let i = 1; i <= 20; i++) states.push((state = grow(state, i)));
    await Promise.all(states.map((s) => journal.save(s)));
    assert.deepEqual(loaded(await StateJournal.load(options(store))).state, jsonForm(state));
  });
});
