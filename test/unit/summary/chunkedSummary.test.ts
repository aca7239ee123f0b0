import * as assert from 'node:assert/strict';
import { CancellationSource, CancelledError, NEVER_CANCELLED } from '../../../src/engine/cancellation';
import { summarizeInChunks } from '../../../src/engine/summary/chunkedSummary';
import { SummaryWindowTooSmallError } from '../../../src/engine/summary/summaryErrors';
import { buildSummaryPrompt } from '../../../src/engine/summary/summaryPrompt';
import type { SummaryRequest } from '../../../src/engine/summary/summarizer';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, filler, result, user } from '../support/builders';
import { countChars, FakeModelSummarizer, guide, historyRequest, REFERENCES } from './summaryFakes';

const deps = { countText: countChars, cancellation: NEVER_CANCELLED };
const tokens = (text: string) => Math.ceil(text.length / 4);

/** A history of about `total` tokens under the character tokenizer, in messages of about 200 tokens. */
function history(total: number): Message[] {
  const messages: Message[] = [user('Fix the login test', 'u0')];
  for (let i = 1; tokens(messages.map(messageText).join('')) < total; i++) {
    messages.push(
      i % 2 === 0 ? assistant(`Step ${i}. ${filler(200, `w${i}`)}`, `a${i}`) : user(`Note ${i}. ${filler(200, `n${i}`)}`, `u${i}`),
    );
  }
  return messages;
}

describe('chunked summary', () => {
  it('makes one call when the prompt fits the window with room for the answer', async () => {
    const model = new FakeModelSummarizer(100_000);
    const request = historyRequest(history(2000), 400);
    const summary = await summarizeInChunks(model, request, deps);
    assert.equal(model.calls.length, 1);
    assert.equal(model.calls[0].request, request);
    assert.ok(summary.startsWith('## Session Summary'));
  });

  it('summarizes an input ten times the window in chunks that all fit, then combines them within the target', async () => {
    const window = 3000;
    const model = new FakeModelSummarizer(window);
    const messages = history(10 * window);
    const request = historyRequest(messages, 400);
    assert.ok(tokens(buildSummaryPrompt(request)) > 10 * window);

    const summary = await summarizeInChunks(model, request, deps);

    assert.ok(tokens(summary) <= 400);
    assert.ok(model.calls.length > 10, `${model.calls.length} calls`);
    for (const { promptTokens, request: r } of model.calls) {
      assert.ok(promptTokens + r.targetTokens <= window, `${promptTokens} + ${r.targetTokens}`);
    }
    const chunkCalls = model.calls.filter((c) => !c.request.messages.some((m) => m.id.startsWith('summary-part-')));
    assert.deepEqual(
      chunkCalls.flatMap((c) => c.request.messages.map((m) => m.id)),
      messages.map((m) => m.id),
      'every message once, in order',
    );
    const last = model.calls[model.calls.length - 1].request;
    assert.match(messageText(last.messages[0]), /^Summary of part 1 of \d+\n\n## Session Summary/);
    assert.equal(last.targetTokens, 400);
  });

  it('splits a single message larger than the window into pieces by characters', async () => {
    const model = new FakeModelSummarizer(3000);
    const huge = user(`BEGIN ${'lorem ipsum '.repeat(8000)} END`, 'big');
    const summary = await summarizeInChunks(model, historyRequest([huge], 300), deps);
    assert.ok(tokens(summary) <= 300);
    const pieces = model.calls.flatMap((c) => c.request.messages).filter((m) => m.id.startsWith('big#'));
    assert.ok(pieces.length > 1);
    assert.equal(pieces.map(messageText).join(''), messageText(huge));
  });

  it('shortens a huge guide so the chunks still have room', async () => {
    const model = new FakeModelSummarizer(3000);
    const request = historyRequest(history(6000), 300, {
      guide: guide(`Intent ${'x'.repeat(40_000)}`, { decisions: Array.from({ length: 200 }, (_, i) => `decision ${i}`) }),
    });
    const summary = await summarizeInChunks(model, request, deps);
    assert.ok(tokens(summary) <= 300);
    for (const c of model.calls) assert.ok(c.promptTokens <= 3000);
  });

  it('compresses a tool result ten times the window in chunks, each with its call as context', async () => {
    const model = new FakeModelSummarizer(3000);
    const request: SummaryRequest = {
      kind: 'toolResult',
      messages: [call('c1', 'bash', { command: 'npm test' }, 'Running the suite.'), result('c1', filler(30_000), false, 'bash')],
      guide: guide('Fix tests'),
      targetTokens: 300,
      references: REFERENCES,
    };
    const summary = await summarizeInChunks(model, request, deps);
    assert.ok(tokens(summary) <= 300);
    assert.ok(model.calls.length > 10);
    for (const c of model.calls) {
      assert.equal(c.request.kind, 'toolResult');
      assert.equal(c.request.messages[0], request.messages[0]);
      assert.ok(c.request.messages.slice(1).every((m) => m.role === 'tool'));
    }
  });

  it('ends with a call that fits even when the model ignores its targets', async () => {
    const model = new FakeModelSummarizer(3000, (r) => `## Session Summary\n${'long answer '.repeat(Math.max(50, r.targetTokens * 2))}`);
    const summary = await summarizeInChunks(model, historyRequest(history(30_000), 300), deps);
    assert.ok(summary.startsWith('## Session Summary'));
    assert.ok(model.calls.length < 200);
    for (const c of model.calls) assert.ok(c.promptTokens <= 3000);
  });

  it('stops with CancelledError when cancelled between chunks', async () => {
    const source = new CancellationSource();
    const model = new FakeModelSummarizer(3000, (r, n) => {
      if (n === 2) source.cancel();
      return `summary of ${r.messages.length} messages`;
    });
    await assert.rejects(
      summarizeInChunks(model, historyRequest(history(30_000), 300), { countText: countChars, cancellation: source.token }),
      CancelledError,
    );
    assert.equal(model.calls.length, 2);
  });

  it('does not start when already cancelled', async () => {
    const source = new CancellationSource();
    source.cancel();
    const model = new FakeModelSummarizer(100_000);
    await assert.rejects(
      summarizeInChunks(model, historyRequest(history(100), 300), { countText: countChars, cancellation: source.token }),
      CancelledError,
    );
    assert.equal(model.calls.length, 0);
  });

  it('says so when the window cannot hold the instructions', async () => {
    const model = new FakeModelSummarizer(200);
    await assert.rejects(summarizeInChunks(model, historyRequest(history(2000), 100), deps), SummaryWindowTooSmallError);
  });
});
