import * as assert from 'node:assert/strict';
import { summarizeCompression } from '../../../src/engine/activity/compressionSummaryText';
import type { CompressionEvent } from '../../../src/engine/model/compressionEvent';
import type { ContextFigures } from '../../../src/engine/model/preparedContext';
import { levelFor } from '../../../src/engine/levels';

const BUDGET = 10_000;
const at = (tokens: number): ContextFigures => ({ tokens, usage: tokens / BUDGET, level: levelFor(tokens / BUDGET) });
const checkpoint: CompressionEvent = { at: 1, kind: 'checkpoint', savedTokens: 1_600, detail: 'Summarized 12 messages → 1 summary' };

/** An explicit compression: what the request sends before and after, and the earlier lines within what it sends after. */
function compressed(before: number, after: number, earlier: number, events: CompressionEvent[] = [checkpoint]) {
  return {
    events,
    budget: BUDGET,
    ...at(after),
    needed: { before: at(before), after: at(after), earlier: { tokens: earlier, usage: earlier / BUDGET } },
  };
}

describe('what an explicit compression says it did', () => {
  it('compares what the next request sends before and after, and names the earlier lines within it', () => {
    const first = summarizeCompression(compressed(3_800, 2_000, 600)).split('\n')[0];
    assert.equal(
      first,
      'Compressed the context from 38% (YELLOW) to 20% (GREEN): the next request sends 3,800 → 2,000 tokens of 10,000, 1,800 fewer. ' +
        'Of them, 600 tokens are earlier lines, word for word, kept until the next compression.',
    );
  });

  it('claims no saving when the request sends as much as before', () => {
    const first = summarizeCompression(compressed(2_787, 2_935, 0)).split('\n')[0];
    assert.equal(first, 'The compression saved nothing: the next request sends 2,787 → 2,935 tokens of 10,000 (29% (YELLOW)).');
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
