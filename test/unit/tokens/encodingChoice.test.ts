import * as assert from 'node:assert/strict';
import { chooseEncoding } from '../../../src/engine/tokens/encodingChoice';

describe('chooseEncoding', () => {
  it('uses cl100k_base for GPT-3.5 and GPT-4 (Turbo) families and ids', () => {
    for (const model of [
      'gpt-3.5-turbo',
      'gpt-3.5-turbo-16k-0613',
      'gpt-35-turbo',
      'gpt-4',
      'GPT-4',
      'gpt-4-0613',
      'gpt-4-32k',
      'gpt-4-turbo',
      'gpt-4-1106-preview',
      'text-embedding-ada-002',
    ]) {
      assert.equal(chooseEncoding(model), 'cl100k_base', model);
    }
  });

  it('uses o200k_base for GPT-4o, GPT-4.1, GPT-4.5, GPT-5, o-series and other vendors', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-4.1-nano',
      'gpt-4.5-preview',
      'gpt-5',
      'gpt-5-mini',
      'o1',
      'o3-mini',
      'o4-mini',
      'claude-sonnet-4',
      'gemini-2.5-pro',
      'chatgpt-4o-latest',
    ]) {
      assert.equal(chooseEncoding(model), 'o200k_base', model);
    }
  });

  it('sees through provider prefixes and fine-tune wrappers', () => {
    assert.equal(chooseEncoding('openai/gpt-4'), 'cl100k_base');
    assert.equal(chooseEncoding('ft:gpt-3.5-turbo-0613:acme::8abc'), 'cl100k_base');
    assert.equal(chooseEncoding('openai/gpt-4o'), 'o200k_base');
  });

  it('defaults to o200k_base when the model is unknown', () => {
    assert.equal(chooseEncoding(undefined), 'o200k_base');
    assert.equal(chooseEncoding(''), 'o200k_base');
  });

  it('lets an explicit encoding override the model', () => {
    assert.equal(chooseEncoding('gpt-4o', 'cl100k_base'), 'cl100k_base');
    assert.equal(chooseEncoding('gpt-4', 'o200k_base'), 'o200k_base');
    assert.equal(chooseEncoding('gpt-4', 'auto'), 'cl100k_base');
  });
});
