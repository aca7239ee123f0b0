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

  it('reads a current state file as it is', () => {
    const reading = readSessionStateValue({ ...emptyState('s-20260101-000000-abd', 0), checkpointsMade: 2 });
    assert.equal(reading.kind === 'state' ? reading.state.checkpointsMade : undefined, 2);
  });
});
