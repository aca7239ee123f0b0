import * as assert from 'node:assert/strict';
import { SpanFacts } from '../../../src/engine/checkpoints/spanFacts';
import type { Fact } from '../../../src/engine/model/fact';
import type { Message } from '../../../src/engine/types';
import { assistant } from '../support/builders';

const span = (from: number, to: number): Message[] =>
  Array.from({ length: to - from + 1 }, (_, i) => assistant(`step ${from + i}`, `m${from + i}`));

/** Reads one outcome fact per message, and records which messages it was asked to read. */
function recordingReader() {
  const read: string[] = [];
  const reader = (messages: readonly Message[]): Fact[] =>
    messages.map((m) => {
      read.push(m.id);
      return { kind: 'outcome', key: `result of ${m.id}`, text: `result of ${m.id}`, messageId: m.id, score: 0.5 };
    });
  return { read, reader };
}

describe('span facts: what aging does not read again', () => {
  it('gives a span read before its facts again without reading it', () => {
    const facts = new SpanFacts();
    const { read, reader } = recordingReader();
    const first = facts.of(span(1, 5), reader);
    read.length = 0;
    assert.deepEqual(facts.of(span(1, 5), reader), first);
    assert.deepEqual(read, []);
  });

  it('gives a merged span the best facts of its known parts, reading only what no part covers', () => {
    const facts = new SpanFacts();
    const { read, reader } = recordingReader();
    facts.of(span(1, 10), reader);
    facts.of(span(11, 20), reader);
    read.length = 0;
    const merged = facts.of(span(1, 25), reader);
    assert.deepEqual(read, ['m21', 'm22', 'm23', 'm24', 'm25']);
    assert.deepEqual(
      merged.map((f) => f.messageId),
      span(1, 25).map((m) => m.id),
      'every part in order',
    );
  });

  it('caps a merged span at the facts one span may have, choosing among all of its parts', () => {
    const facts = new SpanFacts();
    const { reader } = recordingReader();
    facts.of(span(1, 30), reader);
    facts.of(span(31, 60), reader);
    const merged = facts.of(span(1, 60), reader);
    assert.equal(merged.length, 40);
    assert.ok(merged.some((f) => f.messageId === 'm1') && merged.some((f) => f.messageId === 'm40'), 'chosen from both parts');
  });

  it('reads a span that starts inside a known one whole: only whole known spans stand in for their messages', () => {
    const facts = new SpanFacts();
    const { read, reader } = recordingReader();
    facts.of(span(1, 10), reader);
    read.length = 0;
    facts.of(span(5, 15), reader);
    assert.deepEqual(
      read,
      span(5, 15).map((m) => m.id),
    );
  });
});
