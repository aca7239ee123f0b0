import * as assert from 'node:assert/strict';
import { emptyState, readSessionStateValue, type SessionState } from '../../../src/engine/model/sessionState';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { sessionJournalOptions } from '../../../src/engine/storage/sessionJournal';
import { StateJournal } from '../../../src/engine/storage/stateJournal';
import { FakeClock } from '../support/fakes';

const ID = 's-20260301-120000-num';
const state = (): SessionState => ({ ...emptyState(ID, 1_000), earlierRoom: 900, earlierPrintedRoom: 300 });

function reasonFor(value: unknown): string {
  const reading = readSessionStateValue(value, ID);
  assert.equal(reading.kind, 'unreadable', 'the state is refused');
  return reading.kind === 'unreadable' ? reading.reason : '';
}

describe('numbers in a stored state', () => {
  const topLevel: readonly (readonly [keyof SessionState, number])[] = [
    ['earlierRoom', 1e308],
    ['earlierPrintedRoom', -1e308],
    ['earlierRoom', -1],
    ['archivedCount', 1e300],
    ['checkpointsMade', -3],
    ['contextConfidence', 7],
    ['createdAt', 9e15],
    ['updatedAt', -1e308],
    ['earlierRoom', Infinity],
  ];
  for (const [field, value] of topLevel) {
    it(`refuses ${field} = ${value} and names the field and its value`, () => {
      const reason = reasonFor({ ...state(), [field]: value });
      assert.match(reason, new RegExp(`"${field}" holds ${String(value).replace('+', '\\+')}, outside the range`));
    });
  }

  it('refuses out-of-range numbers inside the lists and records a state holds, and reads them in range', () => {
    const base = state();
    const nested: readonly (readonly [string, (n: number) => Partial<SessionState>])[] = [
      ['an offload', (n) => ({ offloads: [{ callId: 'c1', file: 'offloaded/a.txt', tokens: n, savedTokens: 10 }] as never })],
      ['a history event', (n) => ({ history: [{ at: 1, kind: 'offload', savedTokens: -n, detail: 'x' }] })],
      ['a timeline point', (n) => ({ timeline: [{ at: 1, before: n, after: 1, level: 'GREEN', budget: 1, historyEnd: 0 }] as never })],
      ['a message', (n) => ({ active: [{ id: 'm1', role: 'user', blocks: [{ type: 'text', text: 'hi' }], at: n }] })],
      [
        'a ledger goal',
        (n) => ({ ledger: { ...base.ledger, goals: [{ id: 'g1', text: 'g', status: 'active', source: 'user', at: -n }] } as never }),
      ],
    ];
    for (const [what, patch] of nested) {
      assert.equal(readSessionStateValue({ ...base, ...patch(5) }, ID).kind, 'state', `${what} in range`);
      assert.equal(readSessionStateValue({ ...base, ...patch(1e308) }, ID).kind, 'unreadable', `${what} out of range`);
    }
  });

  it('reads ordinary figures as they are', () => {
    const reading = readSessionStateValue({ ...state(), contextConfidence: 0.42, archivedCount: 12 }, ID);
    assert.equal(reading.kind, 'state');
  });

  it('leaves out journal lines that set a number out of range and says why, keeping the base', async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const journal = StateJournal.create(sessionJournalOptions(ID, { store, clock }));
    await journal.save(state());
    await journal.save({ ...state(), earlierRoom: 1e308, earlierPrintedRoom: -1e308 });
    const load = await StateJournal.load(sessionJournalOptions(ID, { store, clock }));
    assert.equal(load.kind, 'loaded');
    if (load.kind !== 'loaded') return;
    assert.equal(load.state.earlierRoom, 900, "the base's room");
    assert.equal(load.state.earlierPrintedRoom, 300);
    assert.ok(
      load.notes.some((n) => /did not make a valid state .*"earlierRoom" holds 1e\+308/.test(n)),
      load.notes.join('\n'),
    );
  });
});
