import * as assert from 'node:assert/strict';
import { budgetFor } from '../../../src/engine/budget';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import type { ReplayProgress } from '../../../src/cli/replay/replayFigures';
import { MessageFeed } from '../../../src/cli/replay/messageFeed';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { message, textBlock, toolCallBlock, type Message } from '../../../src/engine/types';
import { call, filler, result, user } from '../support/builders';
import { CharTokenizer } from '../support/fakes';

const at = (m: Message, time: number): Message => ({ ...m, at: time });

/** A user request, a large read, a write of a large file, a test run, then a checkpoint call and more work. */
function conversation(): Message[] {
  const big = filler(3_000, 'file');
  return [
    at(user('Please fix the parser'), Date.UTC(2026, 1, 1, 9, 0, 0)),
    call('c1', 'Read', { file_path: 'src/parser.ts' }),
    result('c1', filler(2_000, 'source'), false, 'Read'),
    call('c2', 'Write', { file_path: 'src/parser.ts', content: big }),
    result('c2', 'File written', false, 'Write'),
    call('c3', 'Bash', { command: 'npm test' }),
    result('c3', 'all tests pass', false, 'Bash'),
    message('a-cp', 'assistant', [textBlock('Exploration done.'), toolCallBlock('cp1', 'ctx_checkpoint', { reason: 'explored' })]),
    result('cp1', 'Checkpoint noted', false, 'ctx_checkpoint'),
    call('c4', 'Bash', { command: 'git diff' }),
    result('c4', 'diff --git a/src/parser.ts b/src/parser.ts', false, 'Bash'),
    at(user('Thanks'), Date.UTC(2026, 1, 1, 9, 30, 0)),
  ];
}

describe('replaying a conversation through a session', () => {
  it('adds every message, prepares each request and reports what the tiers did', async () => {
    const messages = conversation();
    const store = new MemoryStore();
    const counter = new TokenCounter(new CharTokenizer());
    const progress: ReplayProgress[] = [];
    const { figures, session, final } = await replayTranscript(
      { format: 'claude-code', messages },
      {
        maxInputTokens: 9_000,
        store,
        counter,
        engine: { ...DEFAULT_OPTIONS, offloadThresholdTokens: 1_000 },
        onProgress: (p) => progress.push(p),
      },
    );

    assert.deepEqual(await session.readArchive(), messages, 'the archive holds every message as it arrived');
    assert.equal(figures.messages, messages.length);
    assert.equal(figures.toolCalls, 5);
    assert.equal(figures.budget, budgetFor({ maxInputTokens: 9_000 }));
    assert.equal(figures.inputTokens, (await counter.measure(messages)).total);
    assert.equal(figures.offloaded, 1, 'the 2,000-token read went to a file');
    assert.equal(figures.truncated, 1, 'the write, verified in the transcript workspace, lost its content');
    assert.equal(session.state.watermark, 'cp1', 'the checkpoint tool moved the watermark');
    assert.equal(figures.watermarked, 0, 'the few tool blocks before it do not pay for a rebase this short session never needs');
    // One request before each answer: the two calls after the user's request, the checkpoint call and the diff.
    const answers = messages.filter((m, i) => m.role === 'assistant' && i > 0).length;
    assert.equal(figures.promptCache.requests, answers);
    assert.equal(figures.promptCache.rebases, 1, 'only the truncation, which cleared over half the budget, rewrote what was sent');
    assert.ok(figures.promptCache.reusedTokens > 0 && figures.promptCache.reusedTokens < figures.promptCache.sentTokens);
    // Per request, the same figures: they add up to the tally, and a request's priced input is its reads and writes.
    assert.equal(figures.requests.length, answers);
    assert.equal(
      figures.requests.reduce((n, r) => n + r.reusedTokens, 0),
      figures.promptCache.reusedTokens,
    );
    assert.equal(figures.requests.filter((r) => r.invalidatedTokens > 0).length, figures.promptCache.rebases);
    for (const r of figures.requests) {
      assert.ok(Math.abs(r.pricedInput - (0.1 * r.reusedTokens + 1.25 * (r.sentTokens - r.reusedTokens))) < 0.01);
    }
    assert.equal(figures.checkpoints, 0);
    assert.equal(figures.snapshots, 0);
    assert.ok(figures.finalTokens <= figures.peakTokens && figures.peakTokens < figures.inputTokens);
    assert.equal(figures.finalTokens, final?.tokens);
    assert.equal(figures.finalLevel, final?.level);
    assert.deepEqual(
      progress.map((p) => p.done),
      messages.map((_, i) => i + 1),
    );
    assert.ok(progress.every((p) => p.total === messages.length));
    assert.ok(session.id.startsWith('s-20260201-090000-'), "the session is named after the transcript's start");
    assert.ok(session.offloads[0].file.includes('/offloaded/20260201-0900'), "offloaded files carry the transcript's times");
    assert.ok(await store.read(session.paths.state), 'the state is saved');
  });

  it('replays a draining feed as it replays the messages, letting go of each message once it is replayed', async () => {
    const replay = (messages: readonly Message[] | MessageFeed) =>
      replayTranscript(
        { format: 'claude-code', messages },
        { maxInputTokens: 9_000, store: new MemoryStore(), counter: new TokenCounter(new CharTokenizer()), stopwatch: { now: () => 0 } },
      );
    const original = conversation();
    const given = [...original];
    const held: (Message | undefined)[][] = [];
    const feed = MessageFeed.draining(given);
    const drained = await replayTranscript(
      { format: 'claude-code', messages: feed },
      {
        maxInputTokens: 9_000,
        store: new MemoryStore(),
        counter: new TokenCounter(new CharTokenizer()),
        stopwatch: { now: () => 0 },
        onProgress: () => held.push([...given]),
      },
    );
    const whole = await replay(original);
    assert.deepEqual(drained.figures, whole.figures);
    assert.deepEqual(drained.final?.messages, whole.final?.messages);
    assert.deepEqual(await drained.session.readArchive(), original);
    assert.deepEqual(
      held.map((slots) => slots.filter((m) => m !== undefined).length),
      original.map((_, i) => original.length - i - 1),
      'after each message is replayed, only the ones still to come are held',
    );
  });

  it('replays a packed feed as it replays the messages, having emptied the array it was given', async () => {
    const options = { maxInputTokens: 9_000, counter: new TokenCounter(new CharTokenizer()), stopwatch: { now: () => 0 } };
    const original = conversation();
    const given = [...original];
    const feed = MessageFeed.packed(given);
    assert.equal(given.length, 0, 'the messages are held as bytes from here on');
    assert.equal(feed.count, original.length);
    const packed = await replayTranscript({ format: 'claude-code', messages: feed }, { ...options, store: new MemoryStore() });
    const whole = await replayTranscript({ format: 'claude-code', messages: original }, { ...options, store: new MemoryStore() });
    assert.deepEqual(packed.figures, whole.figures);
    assert.deepEqual(packed.final?.messages, whole.final?.messages);
    assert.deepEqual(await packed.session.readArchive(), original);
    assert.equal(feed.take(), undefined);
  });

  it('leaves the watermark alone when the checkpoint tool is not configured', async () => {
    const { figures } = await replayTranscript(
      { format: 'claude-code', messages: conversation() },
      {
        maxInputTokens: 100_000,
        store: new MemoryStore(),
        counter: new TokenCounter(new CharTokenizer()),
        engine: { ...DEFAULT_OPTIONS, checkpointTools: [] },
      },
    );
    assert.equal(figures.watermarked, 0);
    assert.equal(figures.truncated, 0, 'far below the trigger, tier 2 does nothing');
    assert.equal(figures.peakTokens, figures.inputTokens, 'nothing was large enough to offload at the default threshold');
  });

  it('gives the same session and the same context every time the same conversation is replayed, and another session for another', async () => {
    const replay = async (messages: Message[]) => {
      const { session, final } = await replayTranscript(
        { format: 'claude-code', messages },
        {
          maxInputTokens: 9_000,
          store: new MemoryStore(),
          counter: new TokenCounter(new CharTokenizer()),
          engine: { ...DEFAULT_OPTIONS, offloadThresholdTokens: 1_000 },
        },
      );
      session.dispose();
      return { id: session.id, context: final?.messages.map((m) => JSON.stringify(m.blocks)).join('\n') ?? '', tokens: final?.tokens };
    };
    const first = await replay(conversation());
    const again = await replay(conversation());
    assert.equal(again.id, first.id);
    assert.match(first.context, new RegExp(first.id), 'the offloaded read is shown by a path in the session');
    assert.equal(again.context, first.context);
    assert.equal(again.tokens, first.tokens);
    const other = await replay([...conversation(), at(user('One more thing'), Date.UTC(2026, 1, 1, 9, 31, 0))]);
    assert.notEqual(other.id, first.id);
  });

  it('names the session and its offloaded files the same at every replay of a conversation that carries no times', async () => {
    const timeless = () => conversation().map(({ at: _at, ...m }) => m);
    const replay = async () => {
      const { session, final } = await replayTranscript(
        { format: 'mini-swe-agent', messages: timeless() },
        {
          maxInputTokens: 9_000,
          store: new MemoryStore(),
          counter: new TokenCounter(new CharTokenizer()),
          engine: { ...DEFAULT_OPTIONS, offloadThresholdTokens: 1_000 },
        },
      );
      session.dispose();
      return { id: session.id, context: final?.messages.map((m) => JSON.stringify(m.blocks)).join('\n') ?? '' };
    };
    const first = await replay();
    // Later by more than the millisecond an offloaded file's name is stamped with.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await replay();
    assert.equal(again.id, first.id);
    assert.match(first.context, /offloaded\/[^"\s]+\.txt/, 'the read went to a file whose name the context shows');
    assert.equal(again.context, first.context);
  });

  it('reports an empty conversation without failing', async () => {
    const { figures, final } = await replayTranscript(
      { format: 'openai', messages: [] },
      { maxInputTokens: 8_000, store: new MemoryStore(), counter: new TokenCounter(new CharTokenizer()), startAt: 0 },
    );
    assert.equal(final, undefined);
    assert.equal(figures.messages, 0);
    assert.equal(figures.finalLevel, 'GREEN');
    assert.equal(figures.finalTokens, figures.inputTokens);
  });
});
