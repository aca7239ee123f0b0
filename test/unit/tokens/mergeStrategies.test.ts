import * as assert from 'node:assert/strict';
import { countTokensByHeap } from '../../../src/engine/tokens/mergeHeap';
import { countTokensByLoop } from '../../../src/engine/tokens/mergeLoop';
import { buildRankTable, type RankTable } from '../../../src/engine/tokens/rankData';
import { rankData } from './reference';
import { seededRandom } from './seededRandom';

/** Byte strings biased towards common merges, so long merge chains happen. */
function randomBytes(random: () => number, length: number): string {
  const alphabet = ['a', 'e', 'n', 't', 's', 'r', ' ', 'in', 'er', 'th', '\u00e9', '\u00c3', '\u00a9', '\u00ff'];
  let text = '';
  while (text.length < length) text += alphabet[Math.floor(random() * alphabet.length)];
  return text.slice(0, length);
}

describe('byte-pair merge strategies', () => {
  let ranks: RankTable;
  before(() => {
    ranks = buildRankTable(rankData('o200k_base'));
  });

  it('the heap merge ends with as many tokens as the leftmost-lowest loop, on pieces of every length', () => {
    const random = seededRandom(42);
    for (let i = 0; i < 3_000; i++) {
      const bytes = randomBytes(random, 2 + Math.floor(random() * 300));
      assert.equal(countTokensByHeap(bytes, ranks), countTokensByLoop(bytes, ranks), JSON.stringify(bytes));
    }
  });

  it('both merges leave a piece with no mergeable pair as single bytes', () => {
    const bytes = '\u00ff\u00fe\u00ff\u00fe';
    assert.equal(countTokensByLoop(bytes, ranks), 4);
    assert.equal(countTokensByHeap(bytes, ranks), 4);
  });
});
