import * as assert from 'node:assert/strict';
import { EARLIER_LINES_HEADING } from '../../../src/engine/checkpoints/earlierLines';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

const WORDS = ['row', 'batch', 'column', 'value', 'record', 'shard', 'window', 'metric', 'offset', 'payload'];

/** Output of a data tool: `lines` lines of plausible rows, with `insert` somewhere in the middle. */
function output(next: () => number, lines: number, insert?: string): string {
  const rows = Array.from(
    { length: lines },
    (_, i) => `${WORDS[Math.floor(next() * WORDS.length)]}_${i} ${Math.floor(next() * 10_000)} ok`,
  );
  if (insert) rows.splice(Math.floor(lines / 2), 0, insert);
  return rows.join('\n');
}

/**
 * A data-pipeline session unlike the shared transcripts: the agent states its choices in plain
 * prose (in French and in English, with no cue word), its plan in a reasoning heading, hits errors
 * it works around in the middle of long outputs, and reports results mid-answer. Everything the
 * test looks for is said in the first third; the rest is work that pushes it out of the live context.
 */
function pipelineSession(seed: number): { messages: Message[]; facts: Record<string, string> } {
  const next = seededRandom(seed);
  const facts = {
    decisionFrench: 'Le cache vit dans `cache/ttl_store.py` avec une durée de 90 secondes.',
    decisionHeading: '**Checking the retry layer in fetcher_v2**',
    decisionPlain: 'The exporter keeps one writer per shard and flushes every 5000 rows.',
    errorWorkedAround: "fatal: ambiguous argument 'release/2.4': unknown revision",
    errorImport: "ModuleNotFoundError: No module named 'pyarrow_compute_x'",
    outcomeMidAnswer: 'The export now writes 1284 rows to out/report_q3.csv in 2.1 seconds.',
  };
  const messages: Message[] = [
    user('Build the quarterly export for the metrics pipeline.'),
    assistant(`${facts.decisionHeading}\nI read the fetcher before touching the exporter.`),
    call('t1', 'shell', { command: 'git log --oneline release/2.4..HEAD' }),
    result('t1', output(next, 80, facts.errorWorkedAround)),
    assistant(`Je regarde la branche principale à la place.\n${facts.decisionFrench}`),
    call('t2', 'shell', { command: 'git log --oneline main..HEAD' }),
    result('t2', output(next, 60)),
    call('t3', 'shell', { command: 'python -c "import pyarrow_compute_x"' }),
    result('t3', output(next, 40, facts.errorImport)),
    assistant(`Plain pandas will do here. ${facts.decisionPlain}`),
    call('t4', 'shell', { command: 'python export.py --quarter 3' }),
    result('t4', output(next, 120)),
    assistant(`Done with the first pass. ${facts.outcomeMidAnswer} The totals match the dashboard.`),
  ];
  for (let turn = 0; turn < 40; turn++) {
    messages.push(user(`Next: look at ${WORDS[turn % WORDS.length]} ${turn}.`));
    messages.push(assistant(`Looking at step ${turn} of the run.`));
    messages.push(call(`w${turn}`, 'shell', { command: `python inspect.py --step ${turn}` }));
    messages.push(result(`w${turn}`, output(next, 60 + Math.floor(next() * 80))));
    messages.push(assistant(`Step ${turn} looks consistent with the previous one.`));
  }
  return { messages, facts };
}

describe("replaying a session whose facts are in the agent's own words", () => {
  for (const seed of [1, 2, 3]) {
    it(`keeps the plain-prose decisions, worked-around errors and mid-answer outcomes verbatim at half the session's size (seed ${seed})`, async () => {
      const { messages, facts } = pipelineSession(seed);
      const { final, figures, session } = await replayAtShareOfInput(messages);
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const context = (final?.messages ?? []).map(messageText).join('\n');
      const lost = Object.entries(facts).filter(([, text]) => !context.includes(text.replace(/\*\*/g, '')) && !context.includes(text));
      assert.deepEqual(lost, [], 'every fact of the first third is in the final context');
      const shown = session.state.earlierLines.filter((line) => context.includes(line.key));
      assert.ok(context.includes(EARLIER_LINES_HEADING) && shown.length > 0, 'the earlier lines have the room the last rebase gave them');
      assert.ok(figures.finalTokens <= figures.budget);
    });
  }
});
