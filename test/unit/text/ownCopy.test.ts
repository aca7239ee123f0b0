import * as assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ownCopy } from '../../../src/engine/text/ownCopy';

/** A full collection, reached without starting the process with `--expose-gc`. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const MB = 1024 * 1024;

describe('own copy of a string', () => {
  it('has the same characters, whatever they are', () => {
    for (const text of ['', 'a', 'line of a ledger', 'ünïcødé ✓ 𝄞 emoji 🙂', 'x'.repeat(10_000)]) assert.equal(ownCopy(text), text);
  });

  it('keeps only its own characters alive, not the long text it was split from', () => {
    const longText = () => Array.from({ length: 200_000 }, (_, i) => `line ${i} of a long text, ${'x'.repeat(100)}`).join('\n');
    // The text is made and split in a call of its own, so nothing but the kept lines can hold it once it returns.
    const firstLines = (keep: (line: string) => string) => longText().split('\n', 100).map(keep);
    const heldBy = (keep: (line: string) => string): number => {
      collect();
      const base = process.memoryUsage().heapUsed;
      const kept = firstLines(keep);
      collect();
      const held = process.memoryUsage().heapUsed - base;
      assert.equal(kept.length, 100);
      return held;
    };
    // The text is about 24 MB: slices keep all of it, copies a few kilobytes.
    const sliced = heldBy((line) => line);
    const copied = heldBy(ownCopy);
    assert.ok(sliced > 20 * MB, `slices keep ${(sliced / MB).toFixed(1)} MB`);
    assert.ok(copied < 2 * MB, `copies keep ${(copied / MB).toFixed(1)} MB`);
  });
});
