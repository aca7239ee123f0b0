import * as assert from 'node:assert/strict';
import { summarizeCompression } from '../../../src/engine/activity/compressionSummaryText';
import type { CompressionEvent } from '../../../src/engine/model/compressionEvent';
import type { ContextFigures } from '../../../src/engine/model/preparedContext';
import { levelFor } from '../../../src/engine/levels';

const BUDGET = 10_000;
const at = (tokens: number): ContextFigures => ({ tokens, usage: tokens / BUDGET, level: levelFor(tokens / BUDGET) });
const checkpoint: CompressionEvent = { at: 1, kind: 'checkpoint', savedTokens: 1_600, detail: 'Summarized 12 messages → 1 summary' };

/** An explicit compression: what the request needs before and after, and the earlier lines it shows after. */
function compressed(before: number, after: number, earlier: number, events: CompressionEvent[] = [checkpoint]) {
  const total = after + earlier;
  return {
    events,
    budget: BUDGET,
    ...at(total),
    needed: { before: at(before), after: at(after), earlier: { tokens: earlier, usage: earlier / BUDGET } },
  };
}

describe('what an explicit compression says it did', () => {
  it('compares what the next request needs before and after, and names the earlier lines apart', () => {
    const first = summarizeCompression(compressed(3_800, 2_000, 4_600)).split('\n')[0];
    assert.equal(
      first,
      'Compressed the context from 38% (YELLOW) to 20% (GREEN): the next request needs 3,800 → 2,000 tokens of 10,000, 1,800 fewer. ' +
        'The room that was free shows 4,600 tokens of earlier lines, word for word (66% (ORANGE) in all); ' +
        'they give way first when the conversation needs the room.',
    );
  });

  it('claims no saving when the request needs as much as before', () => {
    const first = summarizeCompression(compressed(2_787, 2_935, 0)).split('\n')[0];
    assert.equal(first, 'The compression saved nothing: the next request needs 2,787 → 2,935 tokens of 10,000 (29% (YELLOW)).');
    assert.doesNotMatch(first, /saved \d|fewer/);
  });

  it('lists what each step did under the first line', () => {
    assert.deepEqual(
      summarizeCompression(compressed(3_800, 2_000, 0))
        .split('\n')
        .slice(1),
      ['', '- Summarized 12 messages → 1 summary'],
    );
  });
});
