import * as assert from 'node:assert/strict';
import { narrowEnd, narrowStart, widenEnd, widenStart } from '../../../src/engine/text/surrogatePairs';

describe('slice bounds around surrogate pairs', () => {
  // "a😀b": the emoji is the pair at indexes 1 and 2.
  const text = 'a\u{1F600}b';

  it('narrows a bound that would cut the pair, so the slice loses the whole character', () => {
    assert.equal(narrowEnd(text, 2), 1);
    assert.equal(narrowStart(text, 2), 3);
    assert.equal(text.slice(0, narrowEnd(text, 2)), 'a');
    assert.equal(text.slice(narrowStart(text, 2)), 'b');
  });

  it('widens a bound that would cut the pair, so the slice keeps the whole character', () => {
    assert.equal(widenEnd(text, 2), 3);
    assert.equal(widenStart(text, 2), 1);
    assert.equal(text.slice(0, widenEnd(text, 2)), 'a\u{1F600}');
    assert.equal(text.slice(widenStart(text, 2)), '\u{1F600}b');
  });

  it('leaves a bound between whole characters, and the text’s own ends, where they are', () => {
    for (const bound of [0, 1, 3, 4]) {
      assert.equal(narrowEnd(text, bound), bound);
      assert.equal(narrowStart(text, bound), bound);
      assert.equal(widenEnd(text, bound), bound);
      assert.equal(widenStart(text, bound), bound);
    }
  });
});
