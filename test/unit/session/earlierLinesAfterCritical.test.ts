import * as assert from 'node:assert/strict';
import { EARLIER_LINES_HEADING, earlierRoomAtRebase } from '../../../src/engine/checkpoints/earlierLines';
import { DEFAULT_THRESHOLDS } from '../../../src/engine/levels';
import { AGENT_TEXT } from '../../../src/engine/tiers/offloadToFit';
import { message, textBlock, type Message } from '../../../src/engine/types';
import { assistant, call, filler, result } from '../support/builders';
import { sessionRig } from '../support/session';

const BUDGET = 6_000;

/** Rounds of benchmark runs, each with a verdict line and a sentence of the agent's: what the earlier lines are made of. */
async function benchmarkRounds(rig: ReturnType<typeof sessionRig>, rounds: number): Promise<void> {
  for (let step = 0; step < rounds; step++) {
    const samples = Array.from(
      { length: 30 },
      (_, i) => `stage${step} sample ${i}: ${(i * 37 + step * 11) % 997} tokens per ms on shard ${i % 7}`,
    );
    await rig.session.add([
      message(`q${step}`, 'user', [textBlock(`Check the tokenizer stage ${step}.`)]),
      call(`c${step}`, 'shell', { command: `./bench --stage ${step}` }),
      result(`c${step}`, [...samples, `stage ${step} verdict: ${1000 + step * 17} tokens per second`].join('\n')),
      assistant(`Stage ${step} keeps its buffer at ${64 * (step + 1)} bytes and flushes on every newline.`),
    ]);
    await rig.session.prepare(BUDGET);
  }
}

const earlierLinesShown = (prepared: { messages: readonly Message[] }) =>
  prepared.messages[0].blocks.some((b) => b.type === 'text' && b.text.includes(EARLIER_LINES_HEADING));

describe('the earlier lines after a rebase at CRITICAL', () => {
  it('come back in the same request when a message larger than the window has gone to a file to fit', async () => {
    const rig = sessionRig();
    await benchmarkRounds(rig, 14);
    assert.ok(earlierLinesShown(await rig.session.prepare(BUDGET)), 'a rebase gave the earlier lines room');

    await rig.session.add([assistant(`Here is the whole profile.\n${filler(9_000, 'profile')}`)]);
    const prepared = await rig.session.prepare(BUDGET);

    assert.ok(
      rig.session.offloads.some((o) => o.toolName === AGENT_TEXT),
      'the agent’s text went to a file',
    );
    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    assert.ok(
      rig.session.state.earlierRoom > 0 && earlierLinesShown(prepared),
      'the earlier lines are back, in the request that rewrote the context',
    );
  });

  it('take the room the request has below RED when their whole share would not fit there', async () => {
    const rig = sessionRig();
    await benchmarkRounds(rig, 14);
    // A pasted text the user typed: never sent to a file while the request fits, so it stays, and the context with it
    // ends the rebase below RED with less room there than the earlier lines' share.
    await rig.session.add([message('u-paste', 'user', [textBlock(`Compare with this profile:\n${filler(2_400, 'pasted')}`)])]);
    const prepared = await rig.session.prepare(BUDGET);

    const share = earlierRoomAtRebase(BUDGET);
    const room = rig.session.state.earlierRoom;
    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    assert.ok(room > 0 && room < share, `room ${room} of a share of ${share}`);
    assert.ok(earlierLinesShown(prepared), 'some earlier lines are shown');
  });
});
