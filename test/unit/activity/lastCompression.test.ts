import * as assert from 'node:assert/strict';
import { compressionRecord, describeCompression } from '../../../src/engine/activity/lastCompression';
import type { CompressionEvent } from '../../../src/engine/model/compressionEvent';

const offload = (at: number, savedTokens: number): CompressionEvent => ({ at, kind: 'offload', savedTokens, detail: 'Offloaded a result' });

describe('the last compression', () => {
  it('records when it happened, what it did and the tokens it saved, with the levels before and after', () => {
    const record = compressionRecord(
      [offload(1_000, 5_000), offload(2_000, 7_340), { at: 2_000, kind: 'checkpoint', savedTokens: 0, detail: 'x', name: 'compressed' }],
      { before: { usage: 0.8, level: 'RED' }, after: { usage: 0.52, level: 'ORANGE' } },
    );
    assert.ok(record);
    assert.equal(record.at, 2_000);
    assert.equal(describeCompression(record), '2 results offloaded · 12,340 tokens saved · reached 80% (RED), compressed to 52% (ORANGE)');
  });

  it('is nothing when the events took nothing out', () => {
    assert.equal(compressionRecord([{ at: 1, kind: 'snapshot', savedTokens: 0, detail: 'Snapshot', name: 'snapshot-created' }]), undefined);
  });
});
