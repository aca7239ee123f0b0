import * as assert from 'node:assert/strict';
import { MAX_TERM_LENGTH, codeTerms, identifierParts, normalizeTerm } from '../../../src/engine/recovery/codeTerms';

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
