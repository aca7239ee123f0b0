import * as assert from 'node:assert/strict';
import { PackedRankTable } from '../../../src/engine/tokens/packedRanks';
import { buildRankTable } from '../../../src/engine/tokens/rankData';
import { rankData } from './reference';
import { seededRandom } from './seededRandom';

/** A random binary string (one char per byte) of 1 to 12 bytes. */
function randomBytes(random: () => number): string {
  return String.fromCharCode(...Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 256)));
}

describe('packed rank table: token bytes to rank outside the heap', () => {
  it('gives every token the rank a Map filled the same way gives, and no rank to anything else', () => {
    const random = seededRandom(26);
    const tokens = new Map<string, number>();
    for (let rank = 0; tokens.size < 5000; rank++) tokens.set(randomBytes(random), rank);
    const table = new PackedRankTable([...tokens]);
    for (const [token, rank] of tokens) assert.equal(table.get(token), rank);
    for (let i = 0; i < 5000; i++) {
      const other = randomBytes(random);
      assert.equal(table.get(other), tokens.get(other), `lookup of ${JSON.stringify(other)}`);
      assert.equal(table.has(other), tokens.has(other));
    }
  });

  it('takes the last rank of a token given twice, and tells apart tokens that are prefixes of each other', () => {
    const table = new PackedRankTable([
      ['ab', 1],
      ['abc', 2],
      ['a', 3],
      ['ab', 4],
    ]);
    assert.deepEqual(
      ['a', 'ab', 'abc', 'abcd', ''].map((k) => table.get(k)),
      [3, 4, 2, undefined, undefined],
    );
  });

  it("holds o200k_base's 200,000 tokens with the ranks of js-tiktoken's rank file", () => {
    const data = rankData('o200k_base');
    const table = buildRankTable(data);
    const [first] = data.bpe_ranks.split('\n');
    const fields = first.split(' ');
    fields.slice(2).forEach((token, i) => assert.equal(table.get(atob(token)), Number(fields[1]) + i));
    assert.equal(table.get(' the'), 290);
  });
});
