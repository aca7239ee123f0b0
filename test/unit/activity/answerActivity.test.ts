import * as assert from 'node:assert/strict';
import { AnswerActivity, warningKind, type LevelFigures } from '../../../src/engine/activity/answerActivity';
import { renderAnswerSummary } from '../../../src/engine/activity/answerSummaryText';
import type { CompressionEvent, EngineEventName, EventKind } from '../../../src/engine/model/compressionEvent';
import { levelFor } from '../../../src/engine/levels';
import type { Summarizer } from '../../../src/engine/summary/summarizer';
import { assistant, filler, user } from '../support/builders';
import { sessionRig } from '../support/session';

const event = (kind: EventKind, savedTokens: number, name?: EngineEventName, detail = `${kind} happened`): CompressionEvent => ({
  at: 1_000,
  kind,
  savedTokens,
  detail,
  ...(name ? { name } : {}),
});
const point = (usage: number): LevelFigures => ({ usage, level: levelFor(usage), tokens: Math.round(usage * 10_000) });
/** A request's figures: what it needs before and after its steps, and the earlier lines it shows after them. */
const request = (before: number, after: number, events: CompressionEvent[] = [], critical?: string, earlier = 0) => ({
  needed: { before: point(before), after: point(after), earlier: { tokens: Math.round(earlier * 10_000), usage: earlier } },
  events,
  ...(critical ? { critical: { reason: critical } } : {}),
});
const occurrences = (lines: readonly string[], pattern: RegExp) => lines.filter((l) => pattern.test(l)).length;

describe('what ctx did in one answer', () => {
  it('says many compressions once, with their count, the tokens saved and each kind counted', () => {
    const answer = new AnswerActivity();
    for (let i = 0; i < 24; i++) answer.addEvents([event('offload', 1_000)]);
    for (let i = 0; i < 14; i++) {
      answer.addPreparation(
        request(0.8, 0.5, [
          event('checkpoint', 500, 'checkpoint-created'),
          event('age', 100, 'checkpoint-aged'),
          event('checkpoint', 0, 'compressed'),
          event('snapshot', 0, 'snapshot-created'),
        ]),
      );
    }
    const text = renderAnswerSummary(answer.summary());
    const compressed = text.lines.filter((l) => l.startsWith('Compressed'));
    assert.deepEqual(compressed, [
      'Compressed 52 times in this answer, 32,400 tokens saved: 24 results offloaded, 14 checkpoints, 14 checkpoints aged; 14 snapshots taken.',
    ]);
  });

  it('names the highest point of the answer and where that request brought it, in one level line', () => {
    const answer = new AnswerActivity();
    answer.addPreparation(request(0.6, 0.6));
    answer.addPreparation(request(0.87, 0.63, [event('truncate', 2_400)]));
    answer.addPreparation(request(0.78, 0.52, [event('watermark', 2_600)]));
    assert.equal(answer.peak?.before.level, 'CRITICAL');
    const lines = renderAnswerSummary(answer.summary()).lines;
    assert.equal(occurrences(lines, /^The context/), 1);
    assert.ok(lines.includes('The context reached 87% (CRITICAL), compressed to 63% (ORANGE).'), lines.join('\n'));
  });

  it('compares what the request sends before and after, and names the earlier lines within it', () => {
    const answer = new AnswerActivity();
    answer.addPreparation(request(0.78, 0.2, [event('checkpoint', 5_800, 'checkpoint-created')], undefined, 0.06));
    const lines = renderAnswerSummary(answer.summary()).lines;
    assert.ok(
      lines.includes('The context reached 78% (RED), compressed to 20% (GREEN), 6% of it earlier lines, word for word.'),
      lines.join('\n'),
    );
  });

  it('stays quiet about a level that neither rose to RED nor was compressed', () => {
    const answer = new AnswerActivity();
    answer.addPreparation(request(0.4, 0.4));
    assert.deepEqual(renderAnswerSummary(answer.summary()), { lines: [], warnings: [] });
  });

  it('says CRITICAL once with how often it happened and the latest reason, instead of the level line', () => {
    const answer = new AnswerActivity();
    answer.addPreparation(
      request(
        0.9,
        0.6,
        [event('checkpoint', 3_000, 'checkpoint-created')],
        'The context reached 90% (CRITICAL), compressed to 60% (ORANGE).',
      ),
    );
    answer.addPreparation(
      request(
        0.88,
        0.55,
        [event('checkpoint', 3_300, 'checkpoint-created')],
        'The context reached 88% (CRITICAL), compressed to 55% (ORANGE).',
      ),
    );
    const text = renderAnswerSummary(answer.summary());
    assert.match(
      text.critical ?? '',
      new RegExp(
        String.raw`^\*\*Context CRITICAL\*\* twice in this answer\. The context reached 88% \(CRITICAL\), compressed to 55% \(ORANGE\)\. ` +
          String.raw`A checkpoint and a snapshot were taken each time`,
      ),
    );
    assert.equal(occurrences(text.lines, /^The context/), 0);
  });

  it('says each kind of warning once, with how often it came, in the order they first came', () => {
    const answer = new AnswerActivity();
    const archive = (n: number) =>
      `The archive could not be written (ENOSPC: no space left, write ${n} (attempt ${n})). Compression waits.`;
    answer.addWarnings([archive(1), 'A snapshot could not be saved (EACCES). The conversation goes on; nothing was removed.']);
    answer.addWarnings(Array.from({ length: 11 }, (_, i) => archive(i + 2)));
    const warnings = renderAnswerSummary(answer.summary()).warnings;
    assert.deepEqual(warnings, [
      `⚠ ${archive(12)} (12 times in this answer)`,
      '⚠ A snapshot could not be saved (EACCES). The conversation goes on; nothing was removed.',
    ]);
  });

  it('tells warnings apart by their words outside the parentheses', () => {
    assert.equal(warningKind('Could not write (a (nested) detail) here.'), 'Could not write here.');
    assert.notEqual(warningKind('A large grep result could not be written (x)'), warningKind('The archive could not be written (x)'));
  });

  it('says the drift check once, with its count, among what needs attention', () => {
    const answer = new AnswerActivity();
    answer.addPreparation(request(0.8, 0.5, [event('drift', 0, 'drift-detected', 'Drift check: 1 item(s) missing were put back')]));
    answer.addPreparation(request(0.8, 0.5, [event('drift', 0, 'drift-detected', 'Drift check: 2 item(s) missing were put back')]));
    const text = renderAnswerSummary(answer.summary());
    assert.deepEqual(text.warnings, ['⚠ Drift check: 2 item(s) missing were put back (twice in this answer)']);
  });

  it('puts the details link after the first line only', () => {
    const answer = new AnswerActivity();
    answer.addPreparation(request(0.8, 0.5, [event('truncate', 3_000)]));
    const lines = renderAnswerSummary(answer.summary(), '[Details](command:x)').lines;
    assert.equal(lines.length, 2);
    assert.match(lines[0], /\[Details\]\(command:x\)$/);
    assert.ok(!lines[1].includes('Details'));
  });

  it('counts neither skipped nor failed compressions, nor the summary line of a checkpoint, as compressions', () => {
    const answer = new AnswerActivity();
    answer.addEvents([
      event('checkpoint', 0, 'compression-skipped'),
      event('checkpoint', 0, 'compression-error'),
      event('checkpoint', 0, 'compressed'),
    ]);
    assert.equal(answer.summary().compressions.count, 0);
    assert.deepEqual(renderAnswerSummary(answer.summary(), '[Details](command:x)').lines, []);
  });

  it("counts the checkpoints a session made, not the model's summary replacing a deterministic one later", async () => {
    const { session } = sessionRig();
    for (let i = 1; i <= 20; i++) {
      await session.add([user(`Request ${i}: handle item-${i}.`), assistant(`Working on item-${i}.\n${filler(400)}`)]);
    }
    const model: Summarizer = {
      name: 'fake-model',
      maxInputTokens: 1_000_000,
      summarize: (request) => Promise.resolve(`## Session Summary\nModel summary of ${request.messages.length} messages.`),
    };
    const answer = new AnswerActivity();
    answer.addPreparation(await session.prepare(10_000, { summarizer: model }));
    await session.whenPreparationSettled();
    const upgraded = await session.prepare(10_000, { summarizer: model });
    assert.ok(
      upgraded.events.some((e) => e.name === 'checkpoint-upgraded'),
      "the model's summary arrived",
    );
    answer.addPreparation(upgraded);
    const checkpoints = answer.summary().compressions.kinds.find((k) => k.kind === 'checkpoint');
    assert.equal(checkpoints?.count, 1);
    assert.equal(session.state.checkpointsMade, 1);
  });
});
