import * as assert from 'node:assert/strict';
import { HeldLines } from '../../../src/engine/checkpoints/heldLines';
import type { EarlierLine } from '../../../src/engine/model/earlierLine';
import { matchForm } from '../../../src/engine/facts/factKey';
import { seededRandom } from '../tokens/seededRandom';

const line = (key: string, order: number): EarlierLine => ({ text: `- ${key}`, key, kind: 'decision', score: 0.5, tokens: 10, order });

describe('held earlier lines', () => {
  it('finds a line held by one line of the texts, with its markup and case as matching sees them', () => {
    const pool = [line('Use the **retry queue** for uploads', 1), line('Keep shard-3 read only', 2), line('x', 3)];
    const held = new HeldLines(pool).heldBy(['## Decisions\n- use the retry queue for uploads (locked)', 'Nothing about shards.']);
    assert.deepEqual(
      [...held].map((l) => l.order),
      [1],
    );
  });

  it('does not join two lines of a text to hold a key', () => {
    const pool = [line('flush the cache now', 1)];
    assert.equal(new HeldLines(pool).heldBy(['we must flush the\ncache now']).size, 0);
  });

  it('does not take a line cut short for the long line whose start it shows', () => {
    const sentence = [
      'The first open item is scoped: add a settings page by reusing the existing panel registry,',
      'the webview shell and the shared read model of the sync service',
    ].join(' ');
    const long: EarlierLine = { ...line(sentence.slice(0, 90), 1), text: `- ${sentence}` };
    const short = line('Keep the panel registry as it is', 2);
    const cut = `- Outcome: ${sentence.slice(0, 110)}…`;
    assert.deepEqual([...new HeldLines([long, short]).heldBy([`${cut}\n- keep the panel registry as it is`])], [short]);
    assert.deepEqual([...new HeldLines([long]).heldBy([`- Outcome: ${sentence}`])], [long], 'a line shown whole is held');
  });

  it('answers as a fresh reading would while the texts change a line at a time', () => {
    const next = seededRandom(5);
    const words = ['cache', 'retry', 'queue', 'src/app.ts', 'parse_row', '42', 'the', 'a', 'Flush', 'shard-3', 'données', 'x'];
    const phrase = (n: number) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');
    const textLines = Array.from({ length: 40 }, () => phrase(3 + Math.floor(next() * 10)));
    const pool = Array.from({ length: 80 }, (_, i) => {
      const source = textLines[Math.floor(next() * textLines.length)];
      const start = Math.floor(next() * source.length);
      return line(next() < 0.6 ? source.slice(start, start + 2 + Math.floor(next() * 30)) : phrase(1 + Math.floor(next() * 5)), i + 1);
    });
    const held = new HeldLines(pool);
    for (let round = 0; round < 60; round++) {
      textLines[Math.floor(next() * textLines.length)] = phrase(3 + Math.floor(next() * 10));
      const texts = [textLines.slice(0, 25).join('\n'), ...textLines.slice(25)];
      const expected = pool
        .filter((l) => {
          const form = matchForm(l.key);
          return form.length > 0 && texts.some((t) => t.split('\n').some((tl) => matchForm(tl).includes(form)));
        })
        .map((l) => l.order);
      assert.deepEqual(
        [...held.heldBy(texts)].map((l) => l.order).sort((a, b) => a - b),
        expected,
        `round ${round}`,
      );
    }
  });
});
