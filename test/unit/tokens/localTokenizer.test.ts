import * as assert from 'node:assert/strict';
import type { EncodingName } from '../../../src/engine/ports';
import { LocalTokenizer, loadPackageRanks } from '../../../src/engine/tokens/localTokenizer';
import { referenceCount, referenceEncoder } from './reference';

describe('LocalTokenizer', function () {
  this.timeout(20_000);

  it('loads nothing until first asked, then builds once', async () => {
    const loaded: EncodingName[] = [];
    const tokenizer = new LocalTokenizer('cl100k_base', (encoding) => {
      loaded.push(encoding);
      return loadPackageRanks(encoding);
    });
    assert.equal(tokenizer.ready, false);
    assert.deepEqual(loaded, []);
    await Promise.all([tokenizer.whenReady(), tokenizer.countMany(['a']), tokenizer.whenReady()]);
    assert.equal(tokenizer.ready, true);
    assert.deepEqual(loaded, ['cl100k_base']);
  });

  it('counts like js-tiktoken, in order', async () => {
    const texts = ['Hello, world!', '<|endoftext|>', '', '中文 text 😀'];
    const reference = referenceEncoder('o200k_base');
    const counts = await new LocalTokenizer('o200k_base').countMany(texts);
    assert.deepEqual(
      counts,
      texts.map((text) => referenceCount(reference, text)),
    );
  });

  it('leaves the rank file out of the module cache once it is read, so its text does not stay in memory', async () => {
    const file = require.resolve('js-tiktoken/ranks/cl100k_base');
    delete require.cache[file];
    await new LocalTokenizer('cl100k_base').whenReady();
    assert.equal(require.cache[file], undefined);
  });

  it('rejects when the rank data is not rank data', async () => {
    const tokenizer = new LocalTokenizer('o200k_base', () => ({ nothing: true }));
    await assert.rejects(tokenizer.whenReady(), /unexpected shape/);
    assert.equal(tokenizer.ready, false);
  });
});
