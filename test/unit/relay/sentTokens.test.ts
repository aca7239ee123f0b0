import * as assert from 'node:assert/strict';
import { messageTokensAsSent } from '../../../src/engine/relay/sentTokens';
import { DEFAULT_OFFLOAD_THRESHOLD_TOKENS } from '../../../src/engine/options';
import { MESSAGE_OVERHEAD_TOKENS, TokenCounter } from '../../../src/engine/tokens/counter';
import { TextCounts } from '../../../src/engine/tokens/textCounts';
import { textBlock, toolResultBlock } from '../../../src/engine/types';
import { filler } from '../support/builders';
import { CharTokenizer } from '../support/fakes';

const count = async (t: string) => Math.ceil(t.length / 4);
const deps = { count, offloadThresholdTokens: DEFAULT_OFFLOAD_THRESHOLD_TOKENS };

describe('tokens as ctx sends them', () => {
  it('counts a result that tier 1 will offload as the preview that replaces it', async () => {
    const huge = filler(60_000, 'trace');
    const tokens = await messageTokensAsSent([toolResultBlock('c1', huge)], deps);
    assert.ok(tokens < 2_000, `${tokens} tokens for a 60,000-token result`);
    assert.ok(tokens > 100, 'the preview itself is counted');
  });

  it('counts text and results below the threshold as they are, with the message framing', async () => {
    const small = filler(1_000);
    assert.equal(
      await messageTokensAsSent([textBlock('abcd'), toolResultBlock('c1', small)], deps),
      MESSAGE_OVERHEAD_TOKENS + 1 + (await count(small)),
    );
  });

  it('follows the threshold it is given, as the budget scales it down', async () => {
    const medium = filler(5_000);
    const kept = await messageTokensAsSent([toolResultBlock('c1', medium)], deps);
    const offloaded = await messageTokensAsSent([toolResultBlock('c1', medium)], { count, offloadThresholdTokens: 2_000 });
    assert.ok(offloaded < kept / 3);
  });
});

describe('remembered text counts', () => {
  it('counts each text once, however often it is asked for', async () => {
    const tokenizer = new CharTokenizer();
    const counts = new TextCounts(new TokenCounter(tokenizer));
    for (let i = 0; i < 5; i++) assert.equal(await counts.count('the same instructions'), 6);
    assert.equal(tokenizer.counted, 1);
  });

  it('does not remember estimates made while the tokenizer loads', async () => {
    const tokenizer = new CharTokenizer();
    tokenizer.ready = false;
    const counts = new TextCounts(new TokenCounter(tokenizer));
    await counts.count('loading');
    tokenizer.ready = true;
    await counts.count('loading');
    assert.equal(tokenizer.counted, 1, 'the exact count was asked for once the tokenizer was ready');
  });

  it('forgets the oldest texts beyond its limit', async () => {
    const tokenizer = new CharTokenizer();
    const counts = new TextCounts(new TokenCounter(tokenizer), 2);
    await counts.count('a');
    await counts.count('b');
    await counts.count('c');
    await counts.count('b');
    await counts.count('a');
    assert.equal(tokenizer.counted, 4, 'a was forgotten, b was not');
  });
});
