import * as assert from 'node:assert/strict';
import { renderContext } from '../../../src/cli/replay/renderContext';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { DEFAULT_ANSWER_RESERVE_TOKENS } from '../../../src/engine/budget';
import type { Candidate } from '../../../src/engine/recall/candidate';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { TEMPLATE_MIN_TIMES, withTemplatesShared } from '../../../src/engine/recall/templates';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { CharTokenizer } from '../support/fakes';
import { longSession } from './recallSessions';

const FINDING =
  'Most calls succeed on the second try, and the `retry_after` header is missing in the failing calls, which is why the client retries at once.';

/**
 * A session of a few fixes, a finding said in passing in the middle of an answer, then a long run the agent narrates
 * with one template ("Step 7: I'll run stage 7 of the pipeline.").
 */
function findingThenTemplate(turns: number): Message[] {
  return [
    user('The date parser accepts impossible dates and the cart page breaks; fix both and keep the bundle small.'),
    call('s1', 'bash', { command: 'node scripts/check-dates.js' }, "I'll run the date checks first."),
    result(
      's1',
      ['Running 6 date checks', ...Array.from({ length: 14 }, (_, i) => `  case ${i}: ok`), '6 checks done'].join('\n'),
      false,
      'bash',
    ),
    assistant('The parser is right about leap days now. Next the cart.'),
    call('s2', 'edit_file', {
      path: 'src/pages/cart.tsx',
      old_string: 'import { useCart } from "./cart";',
      new_string: 'import { useCart } from "@/stores/cart";',
    }),
    result('s2', 'Applied 1 edit to src/pages/cart.tsx', false, 'edit_file'),
    call('s3', 'bash', { command: 'npm run size' }),
    result(
      's3',
      ['Bundling 14 entry points', ...Array.from({ length: 10 }, (_, i) => `  entry ${i} packed`), 'Total size: 118 412 bytes'].join('\n'),
      false,
      'bash',
    ),
    assistant(`I looked at the API logs for the checkout retries. ${FINDING} The bundle is within budget.`),
    ...longSession(turns),
    assistant('All stages ran.'),
  ];
}

const fact = (text: string, seq: number, score = 0.6): Candidate => ({
  kind: 'decision',
  key: text,
  text,
  messageId: `a${seq}`,
  seq,
  score,
});

describe('templates among what the agent said', () => {
  it('scores every instance of a sentence said in one shape three times or more lower, but the latest', () => {
    const run = [1, 2, 3, 4].map((i) => fact(`Step ${i}: I'll run stage ${i} of the pipeline.`, i * 10));
    const shared = withTemplatesShared([...run, fact('The retry header is missing.', 25)]);
    assert.ok(
      shared.slice(0, 3).every((c) => c.score < 0.6 / 1.9),
      shared.map((c) => c.score).join(', '),
    );
    assert.equal(shared[3].score, 0.6, 'the latest instance stands for the template');
    assert.equal(shared[4].score, 0.6, 'a sentence said once is untouched');
    const twice = withTemplatesShared([fact('Fixed 3 of 5 tests.', 1), fact('Fixed 5 of 5 tests.', 2)]);
    assert.ok(TEMPLATE_MIN_TIMES > 2 && twice.every((c) => c.score === 0.6), 'said twice is not yet a template');
  });

  it('ranks a finding said once above the instances of a template narrated through a long run', () => {
    const facts = extractFacts(findingThenTemplate(30), { narration: true, maxFacts: 1000 });
    const finding = facts.find((f) => f.text === FINDING);
    const steps = facts.filter((f) => /^Step \d+: I'll run stage \d+ of the pipeline\.$/.test(f.text));
    assert.ok(finding !== undefined && steps.length >= 20, `${steps.length} template sentences`);
    const above = steps.filter((s) => s.score >= finding.score);
    assert.ok(above.length <= 1, `${above.length} template sentences rank with the finding (${finding.score})`);
  });

  it('scores the results of one edit repeated over numbered files as a template: the latest alone at its own score', () => {
    const messages: Message[] = [user('Label the steps of every report module.')];
    for (let i = 0; i < 6; i++) {
      messages.push(
        call(`e${i}`, 'edit_file', { path: `src/report${i}.ts`, old_string: `label: "step-${i}"`, new_string: `label: "report-${i}"` }),
        result(`e${i}`, `Applied 1 edit to src/report${i}.ts`, false, 'edit_file'),
      );
    }
    messages.push(
      call('w1', 'edit_file', { path: 'src/lib/sku.ts', old_string: 'return raw;', new_string: 'return raw.trim().toUpperCase();' }),
      result('w1', 'Applied 1 edit to src/lib/sku.ts', false, 'edit_file'),
      assistant('Done.'),
    );
    const facts = extractFacts(messages, { maxFacts: 80 });
    const labels = facts.filter((f) => /^Now in report\d\.ts: label: "report-\d"$/.test(f.text));
    const once = facts.find((f) => f.text === 'Now in sku.ts: return raw.trim().toUpperCase();');
    assert.equal(labels.length, 6, labels.map((f) => f.text).join(' | '));
    assert.ok(once !== undefined, facts.map((f) => f.text).join(' | '));
    const latest = labels.find((f) => f.text.includes('report5'));
    assert.equal(latest?.score, once.score, 'the latest instance keeps the score an edit said once has');
    for (const instance of labels.filter((f) => f !== latest)) {
      assert.ok(instance.score < once.score, `${instance.text}: ${instance.score}`);
    }
  });

  it('keeps the finding in the final context of a replay at half the input, where the template filled the room', async () => {
    const counter = new TokenCounter(new CharTokenizer());
    const messages = findingThenTemplate(80);
    const input = (await counter.measure(messages)).total;
    const { figures, session, final } = await replayTranscript(
      { format: 'openai', messages },
      {
        maxInputTokens: Math.ceil(input / 2) + DEFAULT_ANSWER_RESERVE_TOKENS,
        store: new MemoryStore(),
        counter,
        stopwatch: { now: () => 0 },
      },
    );
    const context = renderContext(final?.messages ?? [], {
      tokens: figures.finalTokens,
      budget: figures.budget,
      level: figures.finalLevel,
    });
    session.dispose();
    assert.ok(figures.checkpoints > 0, 'the run was summarized');
    assert.ok(context.includes(FINDING), 'the finding is in the context');
  });
});
