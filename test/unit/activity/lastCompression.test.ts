import * as assert from 'node:assert/strict';
import { compressionRecord, describeCompression } from '../../../src/engine/activity/lastCompression';
import type { CompressionEvent } from '../../../src/engine/model/compressionEvent';

const offload = (at: number, savedTokens: number): CompressionEvent => ({ at, kind: 'offload', savedTokens, detail: 'Offloaded a result' });

describe('the last compression', () => {
  it('records when it happened, what it did and the tokens it saved, with the levels before and after', () => {
    const record = compressionRecord(
      [offload(1_000, 5_000), offload(2_000, 7_340), { at: 2_000, kind: 'checkpoint', savedTokens: 0, detail: 'x', name: 'compressed' }],
      { before: { tokens: 20_340, usage: 0.8, level: 'RED' }, after: { tokens: 8_000, usage: 0.52, level: 'ORANGE' } },
    );
    assert.ok(record);
    assert.equal(record.at, 2_000);
    assert.equal(describeCompression(record), '2 results offloaded · 12,340 tokens saved · reached 80% (RED), compressed to 52% (ORANGE)');
  });

  it('says what the request needs less, as the chat does, and the earlier lines within it, when the levels are known', () => {
    // The steps saved 3,944 between them, but the checkpoint's check put facts back: the request needs 3,733 less.
    const record = compressionRecord(
      [offload(1_000, 3_575), { at: 1_000, kind: 'checkpoint', savedTokens: 369, detail: 'x', name: 'checkpoint-created' }],
      {
        before: { tokens: 7_058, usage: 0.59, level: 'ORANGE' },
        after: { tokens: 3_325, usage: 0.27, level: 'YELLOW' },
        earlier: { usage: 0.12 },
      },
    );
    assert.ok(record);
    assert.equal(
      describeCompression(record),
      '1 result offloaded, 1 checkpoint · 3,733 tokens saved · reached 59% (ORANGE), compressed to 27% (YELLOW), ' +
        '12% of it earlier lines, word for word',
    );
  });

  it('is nothing when the events took nothing out', () => {
    assert.equal(compressionRecord([{ at: 1, kind: 'snapshot', savedTokens: 0, detail: 'Snapshot', name: 'snapshot-created' }]), undefined);
  });
});
