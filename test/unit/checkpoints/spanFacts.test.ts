import * as assert from 'node:assert/strict';
import { SpanFacts } from '../../../src/engine/checkpoints/spanFacts';
import type { Fact } from '../../../src/engine/model/fact';

/** The ids of messages `from`..`to`. */
const span = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

/** Reads one outcome fact per message, and records which messages it was asked to read. */
function recordingReader() {
  const read: string[] = [];
  const reader = (ids: readonly string[]): Promise<Fact[]> =>
    Promise.resolve(
      ids.map((id) => {
        read.push(id);
        return { kind: 'outcome', key: `result of ${id}`, text: `result of ${id}`, messageId: id, score: 0.5 };
      }),
    );
  return { read, reader };
}

describe('span facts: what aging does not read again', () => {
  it('gives a span read before its facts again without reading it', async () => {
    const facts = new SpanFacts();
    const { read, reader } = recordingReader();
    const first = await facts.of(span(1, 5), reader);
    read.length = 0;
    assert.deepEqual(await facts.of(span(1, 5), reader), first);
    assert.deepEqual(read, []);
  });

  it('gives a merged span the best facts of its known parts, reading only what no part covers', async () => {
    const facts = new SpanFacts();
    const { read, reader } = recordingReader();
    await facts.of(span(1, 10), reader);
    await facts.of(span(11, 20), reader);
    read.length = 0;
    const merged = await facts.of(span(1, 25), reader);
    assert.deepEqual(read, ['m21', 'm22', 'm23', 'm24', 'm25']);
    assert.deepEqual(
      merged.map((f) => f.messageId),
      span(1, 25),
      'every part in order',
    );
  });

  it('caps a merged span at the facts one span may have, choosing among all of its parts', async () => {
    const facts = new SpanFacts();
    const { reader } = recordingReader();
    await facts.of(span(1, 30), reader);
    await facts.of(span(31, 60), reader);
    const merged = await facts.of(span(1, 60), reader);
    assert.equal(merged.length, 40);
    assert.ok(merged.some((f) => f.messageId === 'm1') && merged.some((f) => f.messageId === 'm40'), 'chosen from both parts');
  });

  it('reads a span that starts inside a known one whole: only whole known spans stand in for their messages', async () => {
    const facts = new SpanFacts();
    const { read, reader } = recordingReader();
    await facts.of(span(1, 10), reader);
    read.length = 0;
    await facts.of(span(5, 15), reader);
    assert.deepEqual(read, span(5, 15));
  });
});
