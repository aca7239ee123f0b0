import * as assert from 'node:assert/strict';
import { BpeTokenCounter } from '../../../src/engine/tokens/bpe';
import { rankData } from './reference';

describe('BpeTokenCounter piece cache', () => {
  const data = rankData('cl100k_base');

  it('remembers each distinct piece once, however often it repeats', () => {
    const counter = new BpeTokenCounter(data);
    const first = counter.count('the cat and the hat and the cat');
    assert.equal(counter.cachedPieces, 5); // "the", " cat", " and", " the", " hat"
    assert.equal(counter.count('the cat and the hat and the cat'), first);
    assert.equal(counter.cachedPieces, 5);
  });

  it('starts over instead of growing past its limit', () => {
    const counter = new BpeTokenCounter(data, { maxCachedPieces: 100 });
    const words = Array.from({ length: 1_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    const expected = new BpeTokenCounter(data).count(words);
    assert.equal(counter.count(words), expected);
    assert.ok(counter.cachedPieces <= 100);
  });

  it('does not cache pieces longer than 64 characters', () => {
    const counter = new BpeTokenCounter(data);
    counter.count('z'.repeat(65));
    assert.equal(counter.cachedPieces, 0);
    counter.count('z'.repeat(64));
    assert.equal(counter.cachedPieces, 1);
  });
});
