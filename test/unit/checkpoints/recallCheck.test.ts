import * as assert from 'node:assert/strict';
import type { Cancellation } from '../../../src/engine/cancellation';
import { renderStatusReport } from '../../../src/engine/activity/statusReport';
import type { ContextSession } from '../../../src/engine/session/contextSession';
import { contextStatus } from '../../../src/engine/activity/contextStatus';
import { DEFAULT_THRESHOLDS } from '../../../src/engine/levels';
import type { Summarizer, SummaryRequest } from '../../../src/engine/summary/summarizer';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, filler, result, user } from '../support/builders';
import { sessionRig } from '../support/session';

/** A model that writes a vague summary: every fact of the span is dropped. */
class ForgetfulModel implements Summarizer {
  readonly name = 'forgetful-model';
  readonly maxInputTokens = 1_000_000;
  async summarize(request: SummaryRequest, _cancellation: Cancellation): Promise<string> {
    return `## Session Summary\nThe assistant worked on packaging for ${request.messages.length} messages.`;
  }
}

/** A packaging session: an error, a change of approach, an outcome; then unrelated later work. */
async function packagingSession(session: ContextSession): Promise<void> {
  await session.add([
    user('Package the CLI so it can be installed with pip.'),
    assistant("I'll build the wheel with the existing build script first."),
    call('c1', 'run_command', { command: 'python build.py --wheel' }),
    result(
      'c1',
      'Traceback (most recent call last):\n  File "build.py", line 3\nModuleNotFoundError: No module named \'yaml\'\nexit code 1',
      true,
      'run_command',
    ),
    assistant(
      "Instead of adding PyYAML as a build dependency, I'll read the settings from config.json, since json is in the standard library.",
    ),
    call('c2', 'edit_file', { path: 'build.py', old_string: 'import yaml', new_string: 'import json' }),
    result('c2', 'Edited build.py', false, 'edit_file'),
    call('c3', 'run_command', { command: 'python build.py --wheel' }),
    result('c3', 'Building wheel...\nwrote dist/quickcli-0.4.2-py3-none-any.whl\nexit code 0', false, 'run_command'),
  ]);
  for (let i = 0; i < 4; i++) {
    await session.add([user(`Now tidy the docs, part ${i}.`), assistant(`Docs part ${i} tidied.\n${filler(1500)}`)]);
  }
}

const contextText = (messages: readonly Message[]) => messages.map(messageText).join('\n');

describe('the recall check after a checkpoint', () => {
  it("catches a model summary that dropped the span's facts: they are put back into the checkpoint, and its figures are kept and reported", async () => {
    const { session } = sessionRig();
    await packagingSession(session);
    const prepared = await session.compress(20_000, { summarizer: new ForgetfulModel() });
    const checkpoint = session.checkpoints[session.checkpoints.length - 1];
    assert.equal(checkpoint.summarizedBy, 'forgetful-model');
    assert.ok(checkpoint.recall, 'the checkpoint carries its recall figures');
    assert.ok(checkpoint.recall.extracted >= 5, `facts extracted: ${checkpoint.recall.extracted}`);
    assert.equal(checkpoint.recall.lost, 0, 'nothing is lost');
    const text = contextText(prepared.messages);
    for (const fact of ["No module named 'yaml'", 'dist/quickcli-0.4.2-py3-none-any.whl', 'read the settings from config.json']) {
      assert.ok(text.includes(fact), `"${fact}" is back in the context`);
    }
    assert.ok(
      prepared.events.some(
        (e) => e.name === 'recall-checked' && /facts, \d+ in the context, \d+ found by search, [1-9]\d* put back, 0 lost/.test(e.detail),
      ),
      'the check says what it put back',
    );
    const report = renderStatusReport(
      contextStatus({
        state: session.state,
        tokens: prepared.tokens,
        budget: prepared.budget,
        estimated: false,
        thresholds: DEFAULT_THRESHOLDS,
        warnings: [],
        now: 0,
      }),
    );
    assert.match(report, /\*\*Recall checks:\*\* \d+ facts: \d+ in the context, \d+ found by search, [1-9]\d* put back, 0 lost/);
  });

  it("at the trigger with a model, the request goes as it grew and the model's checkpoint lands recall-checked at the next request", async () => {
    const { session } = sessionRig();
    await packagingSession(session);
    const model = new ForgetfulModel();
    const far = await session.prepare(20_000, { summarizer: model });
    assert.equal(far.level, 'YELLOW', 'far from the trigger: nothing is prepared');
    await session.recordSent(far.messages);
    await session.add([user('Paste of the full changelog follows.'), assistant(`Read it.\n${filler(9_500)}`)]);
    const atTrigger = await session.prepare(20_000, { summarizer: model });
    assert.equal(atTrigger.level, 'RED');
    assert.equal(atTrigger.checkpoints, 0, 'the request still fits: it waits for the model');
    assert.equal((await session.recordSent(atTrigger.messages)).invalidatedTokens, 0, 'the request only grew');
    await session.whenPreparationSettled();
    const next = await session.prepare(20_000, { summarizer: model });
    assert.ok(next.checkpoints > 0, 'the checkpoint lands at the next request');
    const first = session.checkpoints[0];
    assert.equal(first.summarizedBy, 'forgetful-model', "the model's, never a stand-in");
    assert.ok(first.recall, 'recall-checked as it lands');
    assert.ok(next.events.some((e) => e.name === 'recall-checked'));
    assert.ok((await session.recordSent(next.messages)).invalidatedTokens > 0, 'one rebase');
    await session.whenPreparationSettled();
    const after = await session.prepare(20_000, { summarizer: model });
    assert.ok(
      !after.events.some((e) => e.name === 'checkpoint-upgraded' || e.name === 'recall-checked'),
      'nothing lands at a second rebase',
    );
    assert.equal((await session.recordSent(after.messages)).invalidatedTokens, 0);
  });

  it('at CRITICAL with a model, the checkpoint applies at once: the request would not fit', async () => {
    const { session } = sessionRig();
    await packagingSession(session);
    const model = new ForgetfulModel();
    await session.add([user('Paste of the full changelog follows.'), assistant(`Read it.\n${filler(12_000)}`)]);
    const prepared = await session.prepare(20_000, { summarizer: model });
    assert.ok(prepared.checkpoints > 0, 'a checkpoint was made at once');
    assert.equal(session.checkpoints[0].summarizedBy, 'deterministic', 'the model follows in the background');
  });

  it('at the trigger without a model, checks the checkpoint at once: nothing is left to land at a second rebase', async () => {
    const { session } = sessionRig();
    await packagingSession(session);
    await session.prepare(20_000);
    await session.add([user('Paste of the full changelog follows.'), assistant(`Read it.\n${filler(9_500)}`)]);
    const prepared = await session.prepare(20_000);
    assert.ok(prepared.checkpoints > 0, 'a checkpoint was made at the trigger');
    assert.ok(session.checkpoints[0].recall, 'checked as it was made');
    await session.whenPreparationSettled();
    const next = await session.prepare(20_000);
    assert.ok(!next.events.some((e) => e.name === 'recall-checked'), 'no check lands later');
  });

  it('lowers the reliability score when facts are out of reach, and not when everything was kept', async () => {
    const { session } = sessionRig();
    await packagingSession(session);
    await session.compress(20_000, { summarizer: new ForgetfulModel() });
    const reliability = session.reliability('gpt-4o');
    assert.ok(reliability.recallConfidence !== undefined, 'the recall checks feed the score');
    assert.ok(reliability.recallConfidence > 0.5);
  });
});
