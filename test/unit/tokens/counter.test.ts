import * as assert from 'node:assert/strict';
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, TokenCounter } from '../../../src/engine/tokens/counter';
import { estimateTokens } from '../../../src/engine/tokens/estimate';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../../src/engine/types';
import { GatedTokenizer, SpyTokenizer, WarningLog } from './fakeTokenizers';

function conversation(): Message[] {
  return [
    message('m1', 'system', [textBlock('You are terse.')]),
    message('m2', 'user', [textBlock('List the files.')]),
    message('m3', 'assistant', [textBlock('Listing.'), toolCallBlock('c1', 'ls', { path: '.' })]),
    message('m4', 'tool', [toolResultBlock('c1', 'a.ts\nb.ts', false, 'ls')]),
  ];
}

/** Lets pending promise callbacks (a fire-and-forget build request) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('TokenCounter', () => {
  it('counts text, tool calls as name plus JSON input, and tool results as their content', async () => {
    const tokenizer = new SpyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const input = { path: '.', all: true };
    const call = message('a', 'assistant', [toolCallBlock('c1', 'ls', input)]);
    await counter.measure([message('u', 'user', [textBlock('hi')]), call, message('t', 'tool', [toolResultBlock('c1', 'out')])]);
    assert.deepEqual(tokenizer.batches, [['hi', 'ls' + JSON.stringify(input), 'out']]);
  });

  it('adds the overhead of every message, of every tool call, and the reply priming to the total', async () => {
    const counter = new TokenCounter(new SpyTokenizer());
    const measurement = await counter.measure(conversation());
    assert.equal(measurement.messageTokens[1], 'List the files.'.length + MESSAGE_OVERHEAD_TOKENS);
    const call = 'ls' + JSON.stringify({ path: '.' });
    assert.equal(measurement.messageTokens[2], 'Listing.'.length + call.length + TOOL_CALL_OVERHEAD_TOKENS + MESSAGE_OVERHEAD_TOKENS);
    const sum = measurement.messageTokens.reduce((a, b) => a + b, 0);
    assert.equal(measurement.total, sum + REPLY_PRIMING_TOKENS);
    assert.equal(measurement.estimated, false);
    assert.equal(await counter.countMessage(conversation()[1]), 'List the files.'.length + MESSAGE_OVERHEAD_TOKENS);
  });

  it('measures again after one new message by counting only the new message’s blocks', async () => {
    const tokenizer = new SpyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const messages = conversation();
    const first = await counter.measure(messages);
    const added = message('m5', 'assistant', [textBlock('Two files.'), toolCallBlock('c2', 'read', { file: 'a.ts' })]);
    const second = await counter.measure([...messages, added]);
    assert.equal(tokenizer.batches.length, 2);
    assert.deepEqual(tokenizer.batches[1], ['Two files.', 'read{"file":"a.ts"}']);
    assert.equal(second.total, first.total + second.messageTokens[4]);
  });

  it('recounts a block a tier replaced with a new object, and nothing else', async () => {
    const tokenizer = new SpyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const messages = conversation();
    await counter.measure(messages);
    const shortened = message('m4', 'tool', [toolResultBlock('c1', '[offloaded]', false, 'ls')]);
    await counter.measure([...messages.slice(0, 3), shortened]);
    assert.deepEqual(tokenizer.batches[1], ['[offloaded]']);
  });

  it('counts a block alone once, and not again when its message is measured', async () => {
    const tokenizer = new SpyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const messages = conversation();
    const output = messages[3].blocks[0];
    assert.equal(await counter.countBlock(output), 'a.ts\nb.ts'.length);
    assert.equal(await counter.countBlock(output), 'a.ts\nb.ts'.length);
    await counter.measure(messages);
    assert.deepEqual(tokenizer.batches, [['a.ts\nb.ts'], ['You are terse.', 'List the files.', 'Listing.', 'ls{"path":"."}']]);
  });

  it('does not call the tokenizer when every block is already counted', async () => {
    const tokenizer = new SpyTokenizer();
    const counter = new TokenCounter(tokenizer);
    const messages = conversation();
    await counter.measure(messages);
    await counter.measure(messages);
    await counter.countMessage(messages[0]);
    assert.equal(tokenizer.batches.length, 1);
  });

  describe('while the tokenizer is not ready', () => {
    it('answers with estimates without waiting, and asks for the build once', async () => {
      const tokenizer = new GatedTokenizer();
      const counter = new TokenCounter(tokenizer);
      const measurement = await counter.measure(conversation());
      await counter.measure(conversation());
      assert.equal(measurement.estimated, true);
      assert.equal(counter.estimated, true);
      assert.equal(tokenizer.buildRequests, 1);
      assert.equal(tokenizer.batches.length, 0);
      assert.equal(measurement.messageTokens[1], estimateTokens('List the files.') + MESSAGE_OVERHEAD_TOKENS);
      assert.equal(await counter.countText('abcdefgh'), estimateTokens('abcdefgh'));
    });

    it('does not keep estimates as exact counts: once ready, the same blocks are counted exactly', async () => {
      const tokenizer = new GatedTokenizer();
      const counter = new TokenCounter(tokenizer);
      const messages = conversation();
      await counter.measure(messages);
      tokenizer.finishBuild();
      const exact = await counter.measure(messages);
      assert.equal(exact.estimated, false);
      assert.equal(counter.estimated, false);
      assert.equal(tokenizer.batches.length, 1);
      assert.equal(tokenizer.batches[0].length, 5);
      assert.equal(exact.messageTokens[1], 'List the files.'.length + MESSAGE_OVERHEAD_TOKENS);
      assert.equal(await counter.countText('abcdefgh'), 8);
    });

    it('logs a failed build instead of throwing, and keeps estimating', async () => {
      const tokenizer = new GatedTokenizer();
      const log = new WarningLog();
      const counter = new TokenCounter(tokenizer, log);
      await counter.measure(conversation());
      tokenizer.failBuild(new Error('no rank file'));
      await settle();
      const again = await counter.measure(conversation());
      assert.equal(again.estimated, true);
      assert.equal(log.warnings.length, 1);
    });
  });

  it('estimates non-ASCII text higher per character than ASCII text', () => {
    assert.equal(estimateTokens('abcdefgh'), 2);
    assert.equal(estimateTokens('中文字'), 3);
    assert.equal(estimateTokens(''), 0);
  });

  it('takes the count of a block made of parts counted already, without tokenizing it, once the tokenizer is ready', async () => {
    const spy = new SpyTokenizer();
    const counter = new TokenCounter(spy);
    const section = textBlock('## Earlier, word for word\n- a line counted when it joined the pool');
    counter.knowBlock(section, 17);
    const measured = await counter.measure([message('ctx', 'user', [section])]);
    assert.equal(measured.total, REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + 17);
    assert.deepEqual(spy.batches, [], 'nothing was tokenized');

    const gated = new GatedTokenizer();
    const loading = new TokenCounter(gated);
    const early = textBlock('counted while the tokenizer loads');
    loading.knowBlock(early, 1);
    assert.equal(
      loading.blockTokens(early),
      estimateTokens('counted while the tokenizer loads'),
      'a sum of estimates is not taken as exact',
    );
  });
});
