import * as assert from 'node:assert/strict';
import { CancellationSource, CancelledError, NEVER_CANCELLED, type Cancellation } from '../../../src/engine/cancellation';
import { CIRCUIT_BREAKER_COOL_DOWN_MS, CircuitBreaker } from '../../../src/engine/summary/circuitBreaker';
import { DeterministicSummarizer } from '../../../src/engine/summary/deterministicSummarizer';
import {
  formatDuration,
  summarizeResiliently,
  SUMMARY_TIMEOUT_MS,
  type ResilientSummaryDeps,
} from '../../../src/engine/summary/resilientSummary';
import type { Summarizer, SummaryRequest } from '../../../src/engine/summary/summarizer';
import { assistant, user } from '../support/builders';
import { FakeClock } from '../support/fakes';
import { countChars, historyRequest, recordTools } from './summaryFakes';

const GOOD = '## Session Summary\n### Session Intent\nFix the login test.';

/** A model whose answer is scripted per call; records the cancellation each call got. */
class ScriptedModel implements Summarizer {
  readonly name = 'scripted-model';
  readonly maxInputTokens = 100_000;
  readonly tokens: Cancellation[] = [];
  constructor(public answer: (call: number) => Promise<string>) {}
  summarize(_request: SummaryRequest, cancellation: Cancellation): Promise<string> {
    this.tokens.push(cancellation);
    return this.answer(this.tokens.length);
  }
  get calls(): number {
    return this.tokens.length;
  }
}

/** The deterministic floor, counting its calls. */
class CountingFloor implements Summarizer {
  private readonly inner = new DeterministicSummarizer({ countText: countChars, recordTools });
  readonly name = this.inner.name;
  readonly maxInputTokens = this.inner.maxInputTokens;
  calls = 0;
  summarize(request: SummaryRequest, cancellation: Cancellation): Promise<string> {
    this.calls++;
    return this.inner.summarize(request, cancellation);
  }
}

const never = () => new Promise<string>(() => undefined);
const request = historyRequest([user('Fix the login test', 'u1'), assistant('I will look at src/auth/login.ts first.', 'a1')], 300);

function rig(primary: Summarizer | undefined, more: Partial<ResilientSummaryDeps> = {}) {
  const clock = new FakeClock();
  const floor = new CountingFloor();
  const breaker = new CircuitBreaker(clock);
  const deps: ResilientSummaryDeps = {
    primary,
    floor,
    breaker,
    countText: countChars,
    cancellation: NEVER_CANCELLED,
    timeoutMs: 1000,
    ...more,
  };
  return { clock, floor, breaker, deps };
}

describe('resilient summary', () => {
  it('uses the model when it answers well', async () => {
    const model = new ScriptedModel(async () => GOOD);
    const { deps, floor, breaker } = rig(model);
    assert.deepEqual(await summarizeResiliently(request, deps), { text: GOOD, summarizedBy: 'scripted-model' });
    assert.equal(floor.calls, 0);
    assert.equal(breaker.consecutiveFailures, 0);
  });

  it('uses the deterministic floor, with no reason to give, when there is no model', async () => {
    const { deps } = rig(undefined);
    const summary = await summarizeResiliently(request, deps);
    assert.equal(summary.summarizedBy, 'deterministic');
    assert.equal(summary.fallbackReason, undefined);
    assert.ok(summary.text.startsWith('## Session Summary'));
  });

  it('falls back to the deterministic summary with the reason when the model throws', async () => {
    const model = new ScriptedModel(async () => {
      throw new Error('429 quota exceeded');
    });
    const { deps, breaker } = rig(model);
    const summary = await summarizeResiliently(request, deps);
    assert.equal(summary.summarizedBy, 'deterministic');
    assert.equal(summary.fallbackReason, 'the model request failed (429 quota exceeded)');
    assert.ok(summary.text.includes('### Recovery References'));
    assert.equal(breaker.consecutiveFailures, 1);
  });

  it('falls back when the model does not answer in time, and cancels the abandoned request', async () => {
    const model = new ScriptedModel(never);
    const { deps } = rig(model, { timeoutMs: 20 });
    const summary = await summarizeResiliently(request, deps);
    assert.equal(summary.summarizedBy, 'deterministic');
    assert.equal(summary.fallbackReason, 'the model did not answer within 20 ms');
    assert.equal(model.tokens[0].isCancellationRequested, true);
  });

  it('words time limits plainly, the default one in seconds', () => {
    assert.equal(SUMMARY_TIMEOUT_MS, 60_000);
    assert.equal(formatDuration(SUMMARY_TIMEOUT_MS), '60 s');
    assert.equal(formatDuration(CIRCUIT_BREAKER_COOL_DOWN_MS), '5 min');
    assert.equal(formatDuration(250), '250 ms');
  });

  const garbage: [string, string, RegExp][] = [
    ['an empty summary', '', /the model returned an empty summary/],
    ['only whitespace', ' \n\t ', /the model returned an empty summary/],
    ['NUL characters', 'Summary\u0000\u0000 of things', /binary data/],
    ['many control characters', `Summary ${'\u0001\u0002\u0003\u0004'.repeat(10)}`, /control characters/],
    ['no letters at all', '1234 5678 !!! ---', /without any words/],
    ['more than three times the target', `## Session Summary\n${'word '.repeat(1000)}`, /more than 3 times the target of 300/],
  ];
  for (const [what, answer, reason] of garbage) {
    it(`falls back when the model returns ${what}`, async () => {
      const { deps, breaker } = rig(new ScriptedModel(async () => answer));
      const summary = await summarizeResiliently(request, deps);
      assert.equal(summary.summarizedBy, 'deterministic');
      assert.match(summary.fallbackReason ?? '', reason);
      assert.equal(breaker.consecutiveFailures, 1);
    });
  }

  it('accepts a summary somewhat longer than its target', async () => {
    const long = `## Session Summary\n${'word '.repeat(400)}`;
    const { deps } = rig(new ScriptedModel(async () => long));
    assert.deepEqual(await summarizeResiliently(request, deps), { text: long, summarizedBy: 'scripted-model' });
  });

  it('opens the breaker after three consecutive failures, then skips the model until the cool-down is over', async () => {
    let failing = true;
    const model = new ScriptedModel(async () => {
      if (failing) throw new Error('503 service unavailable');
      return GOOD;
    });
    const { deps, breaker, clock } = rig(model);
    for (let i = 0; i < 3; i++) await summarizeResiliently(request, deps);
    assert.equal(model.calls, 3);
    assert.equal(breaker.state, 'open');

    const skipped = await summarizeResiliently(request, deps);
    assert.equal(model.calls, 3, 'the model is not called while the breaker is open');
    assert.equal(skipped.fallbackReason, 'the model failed 3 times in a row, so it is skipped for 5 min');

    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS);
    failing = false;
    const trial = await summarizeResiliently(request, deps);
    assert.equal(model.calls, 4);
    assert.equal(trial.summarizedBy, 'scripted-model');
    assert.equal(breaker.state, 'closed');
  });

  it('throws CancelledError and does not fall back when the user cancels during the model call', async () => {
    const source = new CancellationSource();
    const model = new ScriptedModel(never);
    const { deps, floor, breaker } = rig(model, { cancellation: source.token, timeoutMs: 10_000 });
    setTimeout(() => source.cancel(), 10);
    await assert.rejects(summarizeResiliently(request, deps), CancelledError);
    assert.equal(floor.calls, 0);
    assert.equal(breaker.consecutiveFailures, 0, 'a cancellation is not a model failure');
    assert.equal(model.tokens[0].isCancellationRequested, true);
  });

  it('throws CancelledError when the model rejects because the user cancelled', async () => {
    const source = new CancellationSource();
    const model = new ScriptedModel(async () => {
      source.cancel();
      throw new CancelledError('The request');
    });
    const { deps, floor } = rig(model, { cancellation: source.token });
    await assert.rejects(summarizeResiliently(request, deps), CancelledError);
    assert.equal(floor.calls, 0);
  });
});
