import * as assert from 'node:assert/strict';
import { emptyState, parseSessionState, readSessionStateValue } from '../../../src/engine/model/sessionState';

describe('state fields renamed since the first state files', () => {
  it('reads the count of checkpoints made from a state file that still calls it compressions', () => {
    const { checkpointsMade: _made, ...rest } = emptyState('s-20260101-000000-abc', 0);
    const old = { ...rest, compressions: 3 };
    const parsed = parseSessionState(JSON.stringify(old));
    assert.equal(parsed?.checkpointsMade, 3);
    assert.ok(parsed !== undefined && !('compressions' in parsed), 'the old name is not carried on');
  });

  it('reads what the drift check put back from a state file that still calls it restored', () => {
    const { putBack: _putBack, ...rest } = emptyState('s-20260101-000000-abe', 0);
    const parsed = parseSessionState(JSON.stringify({ ...rest, restored: '### Put back\n- [GOAL] Ship the importer' }));
    assert.equal(parsed?.putBack, '### Put back\n- [GOAL] Ship the importer');
  });

  it('reads the kind of each history event from a state file whose events still call it tier', () => {
    const state = emptyState('s-20260101-000000-abf', 0);
    const history = [
      { at: 1, tier: 'offload', savedTokens: 1_200, detail: 'Offloaded read_file result' },
      { at: 2, tier: 'checkpoint', savedTokens: 0, detail: 'Context compressed', name: 'compressed' },
    ];
    const parsed = parseSessionState(JSON.stringify({ ...state, history }));
    assert.deepEqual(
      parsed?.history.map((e) => e.kind),
      ['offload', 'checkpoint'],
    );
    assert.ok(parsed !== undefined && parsed.history.every((e) => !('tier' in e)), 'the old name is not carried on');
    assert.equal(parsed?.history[1].name, 'compressed', 'the other fields stay');
  });

  it('keeps the kind of an event that has both names, as an older base with a newer journal line gives', () => {
    const state = emptyState('s-20260101-000000-abg', 0);
    const history = [{ at: 1, tier: 'offload', kind: 'drop', savedTokens: 0, detail: 'Dropped a result' }];
    const parsed = parseSessionState(JSON.stringify({ ...state, history }));
    assert.deepEqual(parsed?.history, [{ at: 1, kind: 'drop', savedTokens: 0, detail: 'Dropped a result' }]);
  });

  it("reads the earlier lines' printed room alone from a state file that also flagged whether that room was free", () => {
    const state = { ...emptyState('s-20260101-000000-abh', 0), earlierRoom: 900 };
    const free = parseSessionState(JSON.stringify({ ...state, earlierRoomFree: true, earlierPrintedRoom: 600 }));
    assert.equal(free?.earlierPrintedRoom, 600);
    assert.ok(free !== undefined && !('earlierRoomFree' in free), 'the flag is not carried on');
    const floor = parseSessionState(JSON.stringify({ ...state, earlierRoomFree: false, earlierPrintedRoom: 600 }));
    assert.equal(floor?.earlierPrintedRoom, 0, 'a room that was not free shows no printed lines');
  });

  it('reads a current state file as it is', () => {
    const reading = readSessionStateValue({ ...emptyState('s-20260101-000000-abd', 0), checkpointsMade: 2 });
    assert.equal(reading.kind === 'state' ? reading.state.checkpointsMade : undefined, 2);
  });
});
