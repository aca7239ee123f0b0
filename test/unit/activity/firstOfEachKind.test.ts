import * as assert from 'node:assert/strict';
import { FirstOfEachKind } from '../../../src/engine/activity/firstOfEachKind';
import type { CompressionEvent } from '../../../src/engine/model/compressionEvent';

const event = (kind: CompressionEvent['kind'], detail: string): CompressionEvent => ({ at: 1, kind, savedTokens: 0, detail });

describe('the events an answer shows as they happen', () => {
  it('shows the first event of each kind, once, however many follow in later rounds', () => {
    const shown = new FirstOfEachKind();
    assert.deepEqual(
      shown
        .take([event('offload', 'first file'), event('offload', 'second file'), event('checkpoint', 'first checkpoint')])
        .map((e) => e.detail),
      ['first file', 'first checkpoint'],
    );
    assert.deepEqual(shown.take([event('offload', 'third file'), event('checkpoint', 'second checkpoint')]), []);
    assert.deepEqual(
      shown.take([event('age', 'aged'), event('offload', 'fourth file')]).map((e) => e.detail),
      ['aged'],
    );
  });

  it('starts again for each answer', () => {
    const first = new FirstOfEachKind();
    first.take([event('offload', 'a file')]);
    assert.equal(new FirstOfEachKind().take([event('offload', 'a file')]).length, 1);
  });
});
