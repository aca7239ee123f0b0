import * as assert from 'node:assert/strict';
import { seededRandom } from '../tokens/seededRandom';
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
    const text = `${numbered(100)}\n`;
    const passages = splitIntoPassages(text);
    const first = numbered(PASSAGE_MAX_LINES);
    assert.deepEqual(passages[0], { text: first, startLine: 1, endLine: PASSAGE_MAX_LINES, from: 0, to: first.length });
    assert.equal(passages[1].startLine, PASSAGE_MAX_LINES - PASSAGE_OVERLAP_LINES + 1);
    assert.equal(passages[passages.length - 1].endLine, 100);
    for (const p of passages) assert.equal(p.text.split('\n')[0], `line ${p.startLine}`);
    for (const p of passages) assert.equal(text.slice(p.from, p.to), p.text, 'each passage is read back from its place in the text');
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

  it('gives each passage exactly its lines joined by their line breaks, and its place in the text, on texts of every shape', () => {
    const random = seededRandom(11);
    const lineOf = () => {
      const kind = random();
      if (kind < 0.1) return '';
      if (kind < 0.15) return 'y'.repeat(PASSAGE_MAX_CHARS + Math.floor(random() * 3 * PASSAGE_MAX_CHARS));
      return `${'word '.repeat(Math.floor(random() * 60))}${kind < 0.3 ? '\r' : ''}`;
    };
    const texts = ['', '\n', '\n\n', 'one', 'one\n', '\none'];
    for (let t = 0; t < 60; t++) texts.push(Array.from({ length: Math.floor(random() * 200) }, lineOf).join('\n') + (t % 2 ? '\n' : ''));
    for (const text of texts) {
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const passages = splitIntoPassages(text);
      if (lines.length > 0) assert.equal(passages[passages.length - 1].endLine, lines.length);
      for (const p of passages) {
        const joined = lines.slice(p.startLine - 1, p.endLine).join('\n');
        if (p.startLine === p.endLine && joined.length > PASSAGE_MAX_CHARS) assert.ok(joined.includes(p.text));
        else assert.equal(p.text, joined);
        assert.equal(text.slice(p.from, p.to), p.text, 'a passage, chunks of long lines too, stands at its place in the text');
      }
    }
  });

  it('copies a capped text character for character, lone surrogates included', () => {
    const whole = `${numbered(5_000)}\n\ud800 lone surrogate`;
    const capped = capForIndexing(whole, 10_000);
    assert.ok(capped.capped);
    assert.ok(whole.startsWith(capped.text));
  });

  it('caps a text for indexing at a line break and reports how much was left out', () => {
    const capped = capForIndexing(numbered(1000), 1000);
    assert.equal(capped.capped, true);
    assert.ok(capped.text.length <= 1000 && capped.text.endsWith(`line ${capped.lastLine}`));
    assert.equal(capForIndexing('small', 1000).capped, false);
  });
});
