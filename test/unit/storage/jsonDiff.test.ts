import * as assert from 'node:assert/strict';
import { appended, isAppendedTo } from '../../../src/engine/appendedList';
import { applyDiff, diffJson, DiffMismatchError } from '../../../src/engine/storage/jsonDiff';
import { seededRandom } from '../tokens/seededRandom';
import { initialFuzzState, jsonForm, randomUpdate } from './randomState';

/** Seeded runs: each is a sequence of random immutable updates. */
const RUNS = 200;
const UPDATES_PER_RUN = 40;

describe('structural diff of immutable JSON states', () => {
  it('skips whatever kept its identity: an unchanged subtree yields no operation', () => {
    const shared = { big: 'x'.repeat(10_000), list: [1, 2, 3] };
    const before = { a: shared, b: 1 };
    assert.deepEqual(diffJson(before, { ...before, b: 2 }), [{ p: ['b'], set: 2 }]);
  });

  it('writes an array whose old elements start the new one as an append of the new elements only', () => {
    const items = [{ id: 1 }, { id: 2 }];
    const ops = diffJson({ items }, { items: [...items, { id: 3 }] });
    assert.deepEqual(ops, [{ p: ['items'], keep: 2, push: [{ id: 3 }] }]);
  });

  it('writes a list made by appends as its new elements without reading the old ones again', () => {
    let reads = 0;
    const counted = <T extends object>(list: T[]): T[] =>
      new Proxy(list, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    const history = counted(Array.from({ length: 5_000 }, (_, i) => ({ event: i })));
    const later = appended(appended(history, [{ event: 5_000 }]), [{ event: 5_001 }]);
    reads = 0;
    const ops = diffJson({ history }, { history: later });
    assert.deepEqual(ops, [{ p: ['history'], keep: 5_000, push: [{ event: 5_000 }, { event: 5_001 }] }]);
    assert.equal(reads, 0);
    const copied = [...later];
    assert.equal(isAppendedTo(copied, history), false, 'an equal list made otherwise is compared element by element');
    assert.deepEqual(diffJson({ history }, { history: copied }), ops);
  });

  it('replaces an array from its first change when elements shifted', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ id: i }));
    const shifted = [{ id: -1 }, ...items];
    assert.deepEqual(diffJson({ items }, { items: shifted }), [{ p: ['items'], keep: 0, push: shifted }]);
  });

  it('writes a list kept to its newest entries as how many of the oldest went and the new ones only', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ id: i, text: `t${i}` }));
    const slid = [...items.slice(3), { id: 20, text: 't20' }, { id: 21, text: 't21' }];
    slid[4] = { ...slid[4], text: 'changed' };
    assert.deepEqual(diffJson({ items }, { items: items.slice(5) }), [{ p: ['items'], drop: 5, keep: 15, push: [] }]);
    const ops = diffJson({ items }, { items: slid });
    assert.deepEqual(ops, [
      { p: ['items'], drop: 3, keep: 17, push: slid.slice(17) },
      { p: ['items', 4, 'text'], set: 'changed' },
    ]);
    assert.deepEqual(applyDiff(structuredClone({ items }), JSON.parse(JSON.stringify(ops))), { items: slid });
  });

  it('diffs a changed element in place when few elements changed', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ id: i, text: `t${i}` }));
    const changed = [...items];
    changed[7] = { ...items[7], text: 'short' };
    assert.deepEqual(diffJson({ items }, { items: changed }), [{ p: ['items', 7, 'text'], set: 'short' }]);
  });

  it('diffs a short list of large objects element by element, so one whose id list grew is written as its new ids', () => {
    const span = (from: number, count: number) => Array.from({ length: count }, (_, i) => `m${from + i}`);
    const before = [
      { id: 'merged', ids: span(0, 1000) },
      { id: 'ancient', ids: span(1000, 20) },
      { id: 'old', ids: span(1020, 20) },
    ];
    const after = [
      { id: 'merged', ids: [...before[0].ids, ...before[1].ids] },
      { id: 'ancient', ids: before[2].ids },
      { id: 'old', ids: span(1040, 20) },
    ];
    const ops = diffJson({ checkpoints: before }, { checkpoints: after });
    assert.deepEqual(ops[0], { p: ['checkpoints', 0, 'ids'], keep: 1000, push: before[1].ids });
    assert.ok(JSON.stringify(ops).length < 1000, 'the merged list is not written again');
    assert.deepEqual(applyDiff(jsonForm({ checkpoints: before }), JSON.parse(JSON.stringify(ops))), jsonForm({ checkpoints: after }));
  });

  it('removes keys that were removed or set to undefined', () => {
    assert.deepEqual(diffJson({ a: 1, b: 2, c: 3 }, { a: 1, b: undefined }), [
      { p: ['b'], del: true },
      { p: ['c'], del: true },
    ]);
  });

  it(`turns the old state's JSON into the new state's JSON over ${RUNS} seeded random runs, through serialized operations`, () => {
    let checked = 0;
    for (let run = 0; run < RUNS; run++) {
      const random = seededRandom(1000 + run);
      let state: unknown = initialFuzzState();
      let stored = jsonForm(state);
      for (let u = 0; u < UPDATES_PER_RUN; u++) {
        const next = randomUpdate(random, state);
        const ops = JSON.parse(JSON.stringify(diffJson(state, next)));
        stored = applyDiff(stored, ops);
        assert.deepEqual(stored, jsonForm(next), `run ${run}, update ${u}`);
        state = next;
        checked++;
      }
    }
    assert.equal(checked, RUNS * UPDATES_PER_RUN);
  });

  it('keeps "__proto__" a plain key and refuses operations that do not fit', () => {
    const stored = applyDiff({ a: {} }, [{ p: ['a', '__proto__'], set: { polluted: true } }]) as { a: Record<string, unknown> };
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(stored.a), ['__proto__']);
    assert.throws(() => applyDiff({ a: [1] }, [{ p: ['a'], keep: 3, push: [] }]), DiffMismatchError);
    assert.throws(() => applyDiff({ a: [1, 2] }, [{ p: ['a'], drop: 3, keep: 0, push: [] }]), DiffMismatchError);
    assert.throws(() => applyDiff({ a: [1, 2] }, [{ p: ['a'], drop: 1, keep: 2, push: [] }]), DiffMismatchError);
    assert.throws(() => applyDiff({ a: 1 }, [{ p: ['b', 'c'], set: 1 }]), DiffMismatchError);
  });
});
