import * as assert from 'node:assert/strict';
import { levelFor } from '../../../src/engine/levels';
import { levelChange, levelFigure, levelShift } from '../../../src/engine/levelWording';
import { filler, user, assistant } from '../support/builders';
import { sessionRig } from '../support/session';

const at = (usage: number) => ({ usage, level: levelFor(usage) });

describe('level wording', () => {
  it('writes a level as its whole percentage and its name, rounded down so it never reads past its threshold', () => {
    assert.equal(levelFigure(at(0.87)), '87% (CRITICAL)');
    assert.equal(levelFigure(at(0.8499)), '84% (RED)');
    assert.equal(levelFigure(at(0.25)), '25% (YELLOW)');
  });

  it('names where the context stood before ctx acted and where it brought it', () => {
    assert.equal(levelChange(at(0.87), at(0.63)), 'reached 87% (CRITICAL), compressed to 63% (ORANGE)');
    assert.equal(levelChange(at(0.92), at(0.88)), 'reached 92% (CRITICAL), compressed to 88% (CRITICAL)');
  });

  it('names one point when nothing was taken out', () => {
    assert.equal(levelChange(at(0.42), at(0.42)), 'at 42% (YELLOW)');
  });

  it('writes an explicit compression as from one level to the other', () => {
    assert.equal(levelShift(at(0.8), at(0.52)), 'from 80% (RED) to 52% (ORANGE)');
  });

  it('gives the CRITICAL reason with the level before the checkpoint and after it, never one figure alone', async () => {
    const { session } = sessionRig({ recentMessagesKept: 2 });
    await session.add([user('Start on item-1 please.'), assistant(`Working on item-1.\n${filler(400)}`)]);
    await session.add([user(`Paste:\n${filler(5_000)}`), assistant(filler(4_500))]);
    const prepared = await session.prepare(10_000);
    assert.ok(prepared.critical, 'the context went CRITICAL');
    assert.equal(prepared.before.level, 'CRITICAL');
    const reason = prepared.critical.reason;
    const [, before, beforeLevel, after, afterLevel] =
      /^The context reached (\d+)% \((\w+)\), compressed to (\d+)% \((\w+)\)(?:, still CRITICAL after a checkpoint)?\.$/.exec(reason) ?? [];
    assert.ok(before, `the reason names both levels: ${reason}`);
    assert.equal(beforeLevel, 'CRITICAL');
    assert.equal(Number(before), Math.floor(prepared.before.usage * 100));
    assert.equal(Number(after), Math.floor(prepared.usage * 100));
    assert.equal(afterLevel, prepared.level);
    assert.ok(
      prepared.events.some((e) => e.kind === 'critical' && e.detail.startsWith(reason)),
      'the event says it the same way',
    );
  });
});
