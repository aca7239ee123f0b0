import * as assert from 'node:assert/strict';
import {
  PASSAGE_MAX_CHARS,
  PASSAGE_MAX_LINES,
  PASSAGE_OVERLAP_LINES,
  capForIndexing,
  splitIntoPassages,
} from '../../../src/engine/recovery/passages';

const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('passages', () => {
  it('splits lines into overlapping windows that cover every line, with their line ranges', () => {
    const passages = splitIntoPassages(`${numbered(100)}\n`);
    assert.deepEqual(passages[0], { text: numbered(PASSAGE_MAX_LINES), startLine: 1, endLine: PASSAGE_MAX_LINES });
    assert.equal(passages[1].startLine, PASSAGE_MAX_LINES - PASSAGE_OVERLAP_LINES + 1);
    assert.equal(passages[passages.length - 1].endLine, 100);
    for (const p of passages) assert.equal(p.text.split('\n')[0], `line ${p.startLine}`);
  });

  it('keeps a window under the character bound when lines are long', () => {
    const line = 'x'.repeat(300);
    const passages = splitIntoPassages(Array.from({ length: 50 }, () => line).join('\n'));
    assert.ok(passages.every((p) => p.text.length <= PASSAGE_MAX_CHARS));
    assert.equal(passages[0].endLine, 6);
  });

  it('cuts one overlong line into chunks that all name that line', () => {
    const passages = splitIntoPassages(`short\n${'y'.repeat(PASSAGE_MAX_CHARS * 3)}\nend`);
    const chunks = passages.filter((p) => p.startLine === 2);
    assert.ok(chunks.length >= 3);
    assert.ok(chunks.every((p) => p.endLine === 2 && p.text.length <= PASSAGE_MAX_CHARS));
    assert.equal(passages[passages.length - 1].text, 'end');
  });

  it('caps a text for indexing at a line break and reports how much was left out', () => {
    const capped = capForIndexing(numbered(1000), 1000);
    assert.equal(capped.capped, true);
    assert.ok(capped.text.length <= 1000 && capped.text.endsWith(`line ${capped.lastLine}`));
    assert.equal(capForIndexing('small', 1000).capped, false);
  });
});
