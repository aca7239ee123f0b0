import * as assert from 'node:assert/strict';
import Module from 'node:module';
import type { EncodingName } from '../../../src/engine/ports';
import { LocalTokenizer, loadPackageRanks, rankFileData } from '../../../src/engine/tokens/localTokenizer';
import { rankData } from './reference';
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

  it('reads a rank file as data, the same as the module exports, in the package and as the build bundles it', () => {
    // Every module Node loads goes through `Module._load`: a rank file read as data never does.
    const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const load = loader._load;
    const required: string[] = [];
    for (const encoding of ['cl100k_base', 'o200k_base'] as const) {
      loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
        required.push(request);
        return load.call(this, request, ...rest);
      };
      let read: { bpe_ranks: string; pat_str: string };
      try {
        read = loadPackageRanks(encoding) as { bpe_ranks: string; pat_str: string };
      } finally {
        loader._load = load;
      }
      assert.deepEqual(
        required.filter((r) => r.includes('ranks')),
        [],
        'the rank file was not required',
      );
      const module = rankData(encoding);
      assert.equal(read.bpe_ranks, module.bpe_ranks);
      assert.equal(read.pat_str, module.pat_str);
      assert.deepEqual(read, module);
    }
    const bundled = [
      '// node_modules/js-tiktoken/dist/ranks/x.cjs',
      'module.exports = { "pat_str": "a", "special_tokens": { "<|x|>": 1 }, "bpe_ranks": "! 0" };',
      '//# sourceMappingURL=x.js.map',
      '',
    ].join('\n');
    assert.deepEqual(rankFileData(bundled), { pat_str: 'a', special_tokens: { '<|x|>': 1 }, bpe_ranks: '! 0' });
    assert.equal(rankFileData('export default { pat_str: "a" };'), undefined);
    assert.equal(rankFileData('module.exports = { broken'), undefined);
  });

  it('rejects when the rank data is not rank data', async () => {
    const tokenizer = new LocalTokenizer('o200k_base', () => ({ nothing: true }));
    await assert.rejects(tokenizer.whenReady(), /unexpected shape/);
    assert.equal(tokenizer.ready, false);
  });
});
