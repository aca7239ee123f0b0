import * as assert from 'node:assert/strict';
import { earlierRoomAtRebase } from '../../../src/engine/checkpoints/earlierLines';
import { DEFAULT_THRESHOLDS } from '../../../src/engine/levels';
import { AGENT_TEXT } from '../../../src/engine/tiers/offloadToFit';
import { message, textBlock } from '../../../src/engine/types';
import { assistant, filler } from '../support/builders';
import { addBenchmarkRounds, sessionRig, showsEarlierLines } from '../support/session';

const BUDGET = 6_000;

describe('the earlier lines after a rebase at CRITICAL', () => {
  it('come back in the same request when a message larger than the window has gone to a file to fit', async () => {
    const rig = sessionRig();
    await addBenchmarkRounds(rig, 14, BUDGET);
    assert.ok(showsEarlierLines(await rig.session.prepare(BUDGET)), 'a rebase gave the earlier lines room');

    await rig.session.add([assistant(`Here is the whole profile.\n${filler(9_000, 'profile')}`)]);
    const prepared = await rig.session.prepare(BUDGET);

    assert.ok(
      rig.session.offloads.some((o) => o.toolName === AGENT_TEXT),
      'the agent’s text went to a file',
    );
    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    assert.ok(
      rig.session.state.earlierRoom > 0 && showsEarlierLines(prepared),
      'the earlier lines are back, in the request that rewrote the context',
    );
  });

  it('take the room the request has below RED when their whole share would not fit there', async () => {
    const rig = sessionRig();
    await addBenchmarkRounds(rig, 14, BUDGET);
    // A pasted text the user typed: never sent to a file while the request fits, so it stays, and the context with it
    // ends the rebase below RED with less room there than the earlier lines' share.
    await rig.session.add([message('u-paste', 'user', [textBlock(`Compare with this profile:\n${filler(3_100, 'pasted')}`)])]);
    const prepared = await rig.session.prepare(BUDGET);

    const share = earlierRoomAtRebase(BUDGET);
    const room = rig.session.state.earlierRoom;
    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    assert.ok(room > 0 && room < share, `room ${room} of a share of ${share}`);
    assert.ok(showsEarlierLines(prepared), 'some earlier lines are shown');
  });
});
