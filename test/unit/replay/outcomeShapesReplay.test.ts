import * as assert from 'node:assert/strict';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

/** What each early step came to, in a shape of its own: the lines the final context must still hold. */
const OUTCOMES = {
  passMark: '✓ parse("2024-02-30") -> rejected',
  measured: 'Total size: 118 412 bytes',
  namedValue: 'mean absolute error = 0.0412',
  tableRow: '| p95 latency | 212 ms |',
} as const;

/**
 * A checkout service's hardening, unlike the shared transcripts: four early checks, each printing its verdict among
 * lines that say little (a run of cases, a build's progress, a table's other rows), then a long stretch of unrelated
 * profiling that pushes the checks out of the live context.
 */
function hardeningSession(seed: number): Message[] {
  const next = seededRandom(seed);
  const cases = Array.from({ length: 14 }, (_, i) => `  case ${i}: ${['ok', 'ok', 'ok', 'skipped'][i % 4]}`);
  const progress = Array.from({ length: 30 }, (_, i) => `bundling chunk ${i} (${Math.floor(next() * 900)} modules)`);
  const ramp = Array.from(
    { length: 30 },
    (_, i) => `running (${i * 2}s), ${i * 10}/300 VUs, ${Math.floor(next() * 9000)} complete iterations`,
  );
  const messages: Message[] = [
    user('Harden the checkout service: date parsing, bundle size, the price model and latency under load.'),
    call('c1', 'shell', { command: 'node scripts/check-dates.js' }),
    result('c1', ['Running 15 date checks', ...cases, OUTCOMES.passMark, '15 checks done'].join('\n')),
    assistant('Date parsing rejects impossible dates now. Next, the bundle.'),
    call('c2', 'shell', { command: 'node scripts/build.js --analyze' }),
    result('c2', ['Building checkout for production', ...progress, OUTCOMES.measured, 'Build finished.'].join('\n')),
    assistant('The bundle is within its limit. Now the price model.'),
    call('c3', 'shell', { command: 'python eval/score.py --split dev' }),
    result('c3', ['loading 1,204 rows', 'model: ridge-v2', OUTCOMES.namedValue, 'done in 3.1s'].join('\n')),
    assistant('The price model holds on the dev split. Last, latency under load.'),
    call('c4', 'shell', { command: 'k6 run load/checkout.js --summary-export=- | ./report.sh' }),
    result(
      'c4',
      [
        ...ramp,
        '| metric | value |',
        '|---|---|',
        OUTCOMES.tableRow,
        '| requests served | 48 210 |',
        ...Array.from({ length: 20 }, (_, i) => `wrote report/part-${i}.json (${Math.floor(next() * 90)} KB)`),
        'report written',
      ].join('\n'),
    ),
    assistant('Latency under load is within the target.'),
  ];
  const rows = (lines: number) =>
    Array.from({ length: lines }, (_, i) => `span_${i} self=${Math.floor(next() * 9000)}us total=${Math.floor(next() * 90000)}us`).join(
      '\n',
    );
  for (let turn = 0; turn < 40; turn++) {
    messages.push(user(`Profile the ${turn}th slowest endpoint.`));
    messages.push(assistant(`Profiling endpoint ${turn}.`));
    messages.push(call(`p${turn}`, 'shell', { command: `node bench/trace.js --endpoint ${turn}` }));
    messages.push(result(`p${turn}`, rows(50 + Math.floor(next() * 60))));
    messages.push(assistant(`Endpoint ${turn} spends most of its time in serialization.`));
  }
  return messages;
}

describe('replaying a session whose early checks each printed one verdict among lines that say little', () => {
  for (const seed of [1, 2]) {
    it(`keeps every verdict in the final context at half the input, whatever its shape (seed ${seed})`, async () => {
      const { final, figures } = await replayAtShareOfInput(hardeningSession(seed));
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const live = final?.messages ?? [];
      assert.ok(!live.some((m) => m.blocks.some((b) => b.type === 'toolResult' && b.callId === 'c4')), 'the checks are no longer live');
      const context = live.map(messageText).join('\n');
      const lost = Object.entries(OUTCOMES).filter(([, line]) => !context.includes(line));
      assert.deepEqual(lost, [], `${figures.finalTokens} of ${figures.budget} tokens`);
    });
  }
});
