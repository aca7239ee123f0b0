import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { compressedContext, replayAtShareOfInput, unrelatedReads } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

const QUEUES = ['intake', 'billing', 'refunds', 'audits'] as const;

/** The row the agent's report gives a queue, aligned with spaces as models write tables. */
const rowOf = (i: number) => `| ${QUEUES[i].padEnd(9)} | ${String(900 + i * 41).padStart(6)} /s | ${String(12 + i).padStart(4)} ms |`;

/**
 * A message broker's tuning, unlike the shared transcripts: each queue is measured and the agent reports it in a small
 * table aligned with spaces, then a long stretch of unrelated reads pushes the reports out of the live context.
 */
function brokerSession(seed: number): Message[] {
  const next = seededRandom(seed);
  const messages: Message[] = [user('Measure every queue after the prefetch change and report the throughput.')];
  QUEUES.forEach((queue, i) => {
    messages.push(call(`m${i}`, 'shell', { command: `./bench/queue.sh ${queue}` }));
    messages.push(result(`m${i}`, Array.from({ length: 30 }, (_, k) => `sample ${k}: ${Math.floor(next() * 2000)} msg/s`).join('\n')));
    messages.push(
      assistant(
        [`Measured ${queue}:`, '', '| queue     |  throughput | p99     |', '|-----------|-------------|---------|', rowOf(i)].join('\n'),
      ),
    );
  });
  messages.push(...unrelatedReads(40, next, (k, n) => `option_${k}: ${Math.floor(n() * 9000)}`));
  return messages;
}

describe('replaying a session whose results the agent reported in tables aligned with spaces', () => {
  for (const seed of [1, 2]) {
    it(`shows each reported row as the agent wrote it, spacing and all, at half the input (seed ${seed})`, async () => {
      const replay = await replayAtShareOfInput(brokerSession(seed));
      const context = compressedContext(replay, 'm0');
      const lost = QUEUES.map((_, i) => rowOf(i)).filter((row) => !context.includes(row));
      assert.deepEqual(lost, [], `${replay.figures.finalTokens} of ${replay.figures.budget} tokens`);
    });
  }
});
