import * as assert from 'node:assert/strict';
import { ReadBackTexts } from '../../../src/engine/recovery/readBackTexts';

describe('texts read back by a search, kept within a limit', () => {
  it('lets the least recently used text go first when a new one does not fit', () => {
    const texts = new ReadBackTexts(10);
    texts.keep(1, 'aaaa');
    texts.keep(2, 'bbbb');
    assert.equal(texts.get(1), 'aaaa', 'using 1 makes 2 the least recent');
    texts.keep(3, 'cccc');
    assert.equal(texts.get(2), undefined);
    assert.equal(texts.get(1), 'aaaa');
    assert.equal(texts.get(3), 'cccc');
    assert.equal(texts.size, 8);
  });

  it('keeps no text larger than the limit, and forgets one text or all', () => {
    const texts = new ReadBackTexts(5);
    texts.keep(1, 'too long');
    assert.equal(texts.get(1), undefined);
    assert.equal(texts.size, 0);
    texts.keep(2, 'ab');
    texts.keep(3, 'cd');
    texts.keep(2, 'xyz');
    assert.equal(texts.size, 5, 'a text kept again replaces its old one');
    texts.forget(2);
    assert.equal(texts.get(2), undefined);
    assert.equal(texts.size, 2);
    texts.clear();
    assert.equal(texts.get(3), undefined);
    assert.equal(texts.size, 0);
  });
});
