import * as assert from 'node:assert/strict';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
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
  for (let turn = 0; turn < 40; turn++) {
    messages.push(user(`Read consumer config ${turn}.`));
    messages.push(call(`p${turn}`, 'read_file', { path: `consumers/c${turn}.yaml` }));
    messages.push(
      result(
        `p${turn}`,
        Array.from({ length: 50 + Math.floor(next() * 50) }, (_, k) => `option_${k}: ${Math.floor(next() * 9000)}`).join('\n'),
      ),
    );
    messages.push(assistant(`Consumer ${turn} is configured as expected.`));
  }
  return messages;
}

describe('replaying a session whose results the agent reported in tables aligned with spaces', () => {
  for (const seed of [1, 2]) {
    it(`shows each reported row as the agent wrote it, spacing and all, at half the input (seed ${seed})`, async () => {
      const { final, figures } = await replayAtShareOfInput(brokerSession(seed));
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const live = final?.messages ?? [];
      assert.ok(!live.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === 'm0')), 'the reports are no longer live');
      const context = live.map(messageText).join('\n');
      const lost = QUEUES.map((_, i) => rowOf(i)).filter((row) => !context.includes(row));
      assert.deepEqual(lost, [], `${figures.finalTokens} of ${figures.budget} tokens`);
    });
  }
});
