import * as assert from 'node:assert/strict';
import MiniSearch from 'minisearch';
import { codeTerms, normalizeTerm } from '../../../src/engine/recovery/codeTerms';
import { PostingList } from '../../../src/engine/recovery/postingList';
import { TermIndex, type TermField, type TermMatching } from '../../../src/engine/recovery/termIndex';
import { seededRandom } from '../tokens/seededRandom';

const FIELDS: readonly TermField[] = [
  { name: 'text', boost: 1 },
  { name: 'name', boost: 0.5 },
];
const LOOSE: TermMatching = {
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
  maxFuzzy: 2,
};
const EXACT: Partial<TermMatching> = { prefix: () => false, fuzzy: () => false };
const everything = () => true;

function indexOf(texts: readonly (readonly [string, string])[]): TermIndex {
  const index = new TermIndex(FIELDS, codeTerms, normalizeTerm, LOOSE);
  texts.forEach((fields, i) => index.add(i + 1, fields));
  return index;
}

/** The passage ids and counts of a list, in order. */
function pairsOf(list: PostingList): [number, number][] {
  const pairs: [number, number][] = [];
  list.forEach((id, frequency) => pairs.push([id, frequency]));
  return pairs;
}

describe('posting list', () => {
  it('counts the occurrences of a term per passage, in the order the passages came, past its first room', () => {
    const list = new PostingList();
    for (const id of [3, 3, 5, 8, 8, 8, 9, 12, 20]) list.addOccurrence(id);
    assert.equal(list.size, 6);
    assert.deepEqual(pairsOf(list), [
      [3, 2],
      [5, 1],
      [8, 3],
      [9, 1],
      [12, 1],
      [20, 1],
    ]);
  });

  it('keeps passage ids far apart and counts in the hundreds as they were, in a few bytes each', () => {
    const list = new PostingList();
    const expected: [number, number][] = [
      [1, 1],
      [200, 130],
      [70_000, 1],
      [3_000_000, 20_000],
      [2_000_000_000, 2],
    ];
    for (const [id, count] of expected) for (let i = 0; i < count; i++) list.addOccurrence(id);
    assert.deepEqual(pairsOf(list), expected);
    list.addOccurrence(2_000_000_001);
    assert.deepEqual(pairsOf(list).slice(-2), [
      [2_000_000_000, 2],
      [2_000_000_001, 1],
    ]);
  });

  it('drops the passages it is told to, keeping the others with their counts', () => {
    const list = new PostingList();
    for (const id of [1, 2, 2, 3, 4]) list.addOccurrence(id);
    assert.equal(
      list.retain((id) => id % 2 === 0),
      2,
    );
    assert.deepEqual(pairsOf(list), [
      [2, 2],
      [4, 1],
    ]);
  });
});

describe('term index', () => {
  it('scores passages as MiniSearch does to the last bit, for exact, prefix and fuzzy matches over two weighted fields', () => {
    const random = seededRandom(26);
    const words = [
      'parseConfig',
      'parser',
      'config',
      'configure',
      'handler',
      'handle',
      'request',
      'ECONNREFUSED',
      'retry',
      'retries',
      'session',
    ];
    const pick = () => words[Math.floor(random() * words.length)];
    const docs = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      text: Array.from({ length: 3 + Math.floor(random() * 30) }, pick).join(' '),
      name: random() < 0.3 ? `${pick()}.ts` : '',
    }));
    const mini = new MiniSearch<{ id: number; text: string; name: string }>({
      fields: ['text', 'name'],
      tokenize: codeTerms,
      processTerm: normalizeTerm,
      searchOptions: { boost: { text: 1, name: 0.5 }, ...LOOSE },
    });
    mini.addAll(docs);
    const index = indexOf(docs.map((d) => [d.text, d.name] as const));
    for (const query of ['config', 'parse handler', 'retrys', 'ECONNREFUSED request', 'handle handle', 'confi']) {
      const expected = mini.search(query).map((r) => ({ id: r.id as number, score: r.score, terms: [...r.terms].sort() }));
      const found = index.search(query, {}, everything).map((r) => ({ id: r.id, score: r.score, terms: [...r.terms].sort() }));
      assert.equal(found.length, expected.length, query);
      assert.ok(expected.length > 0, query);
      found.forEach((f, i) => {
        assert.equal(f.id, expected[i].id, `${query} #${i}`);
        assert.equal(f.score, expected[i].score, `${query} #${i}`);
        assert.deepEqual(f.terms, expected[i].terms, `${query} #${i}`);
      });
    }
  });

  it('matches only whole terms when prefix and fuzzy matching are turned off', () => {
    const index = indexOf([
      ['retrying exhausted', ''],
      ['retry later', ''],
    ]);
    assert.deepEqual(
      index.search('retry', {}, everything).map((r) => r.id),
      [2, 1],
    );
    assert.deepEqual(
      index.search('retry', EXACT, everything).map((r) => r.id),
      [2],
    );
  });

  it('ranks a passage matching more of the query first, and returns the index terms each matched', () => {
    const index = indexOf([
      ['timeout while connecting', ''],
      ['connecting to the database timed out with a timeout', ''],
      ['nothing here', ''],
    ]);
    const found = index.search('database timeout', EXACT, everything);
    assert.deepEqual(
      found.map((r) => r.id),
      [2, 1],
    );
    assert.deepEqual([...found[0].terms].sort(), ['database', 'timeout']);
  });

  it('forgets a discarded passage: it is never found again and no longer counts in the scores of the others', () => {
    const index = indexOf([
      ['alpha beta', ''],
      ['alpha gamma', ''],
      ['delta', ''],
    ]);
    const before = index.search('alpha', EXACT, everything);
    index.discard(1);
    const after = index.search('alpha', EXACT, everything);
    assert.equal(index.size, 2);
    assert.deepEqual(
      after.map((r) => r.id),
      [2],
    );
    const fresh = indexOf([
      ['alpha gamma', ''],
      ['delta', ''],
    ]);
    assert.equal(after[0].score, fresh.search('alpha', EXACT, everything)[0].score);
    assert.notEqual(after[0].score, before.find((r) => r.id === 2)?.score);
  });

  it('leaves out the passages the caller does not keep', () => {
    const index = indexOf([
      ['common word', ''],
      ['common word', ''],
    ]);
    assert.deepEqual(
      index.search('common', EXACT, (id) => id !== 1).map((r) => r.id),
      [2],
    );
  });
});
