import * as assert from 'node:assert/strict';
import { MAX_TERM_LENGTH, codeTerms, identifierParts, normalizeTerm } from '../../../src/engine/recovery/codeTerms';
import { seededRandom } from '../tokens/seededRandom';

describe('code-aware tokenization', () => {
  it('keeps an identifier whole and adds its camelCase and snake_case parts', () => {
    assert.deepEqual(codeTerms('handleRequest'), ['handleRequest', 'handle', 'Request']);
    assert.deepEqual(codeTerms('MAX_RETRY_COUNT'), ['MAX_RETRY_COUNT', 'MAX', 'RETRY', 'COUNT']);
    assert.deepEqual(identifierParts('parseHTTPResponse2'), ['parse', 'HTTP', 'Response2']);
  });

  it('splits paths and punctuation into words, and leaves single words alone', () => {
    assert.deepEqual(codeTerms('src/app/server.ts:118'), ['src', 'app', 'server', 'ts', '118']);
    assert.deepEqual(codeTerms('ECONNREFUSED'), ['ECONNREFUSED']);
  });

  it('also yields the word after a JSON escape, so escaped file contents stay searchable', () => {
    assert.deepEqual(codeTerms('"\\nimport {\\n\\tChevronDown'), [
      'nimport',
      'import',
      'n',
      'tChevronDown',
      't',
      'Chevron',
      'Down',
      'ChevronDown',
      'Chevron',
      'Down',
    ]);
  });

  it('lower-cases terms and drops ones too long to be worth indexing', () => {
    assert.equal(normalizeTerm('HandleRequest'), 'handlerequest');
    assert.equal(normalizeTerm('a'.repeat(MAX_TERM_LENGTH + 1)), null);
  });
});

/** Terms found one regex match at a time, looking back for the escape: what `codeTerms` must equal. */
function termsOneMatchAtATime(text: string): string[] {
  const terms: string[] = [];
  const addWord = (word: string) => {
    terms.push(word);
    const parts = identifierParts(word);
    if (parts.length > 1) terms.push(...parts);
  };
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    addWord(word);
    const index = match.index;
    if (index > 0 && text[index - 1] === '\\' && word.length > 1 && 'nrt'.includes(word[0])) addWord(word.slice(1));
  }
  return terms;
}

describe('code-aware tokenization on generated text', () => {
  it('gives the same terms, in the same order, as finding each word and its escape one match at a time', () => {
    const random = seededRandom(23);
    const pieces = [
      '\\',
      '\\\\',
      '\\n',
      '\\t',
      '\\r',
      'n',
      '_',
      '__',
      'a',
      'Z',
      'HTTP',
      'Server',
      'x2',
      '9',
      'é',
      'Ünï',
      'ß',
      '日本',
      ' ',
      '/',
      '.',
      '"',
      '{',
      '\n',
      'getURL',
      'MAX_RETRY',
      'tChevron',
    ];
    for (let round = 0; round < 2_000; round++) {
      const length = 1 + Math.floor(random() * 30);
      let text = '';
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      assert.deepEqual(codeTerms(text), termsOneMatchAtATime(text), JSON.stringify(text));
    }
  });
});
