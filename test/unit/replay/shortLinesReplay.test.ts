import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
import { renderContext } from '../../../src/cli/replay/renderContext';
import { seededRandom } from '../tokens/seededRandom';

const SERVICES = ['invoice', 'ledger', 'parser', 'cache', 'router', 'mailer', 'session', 'export', 'upload', 'search'];

/**
 * A session that tunes service after service, unlike the shared transcripts: after reading the handler and running its
 * benchmark, the agent says what the step came to in one short line of two sentences. Then a long review follows,
 * so every one of those lines is summarized.
 */
function tuningSession(seed: number): { messages: Message[]; reports: string[] } {
  const next = seededRandom(seed);
  const n = (span: number) => Math.floor(next() * span);
  const messages: Message[] = [user('Speed up each service in turn and tell me what each step came to.')];
  const reports: string[] = [];
  for (let i = 0; i < 24; i++) {
    const service = SERVICES[i % SERVICES.length];
    messages.push(user(`Next, ${service} (round ${i}).`));
    messages.push(call(`r${i}`, 'read_file', { path: `services/${service}/handler.go` }));
    messages.push(
      result(
        `r${i}`,
        Array.from(
          { length: 60 + n(40) },
          (_, k) => `func ${service}Step${k}(ctx context.Context) error { return run(ctx, ${n(100)}) }`,
        ).join('\n'),
      ),
    );
    messages.push(call(`t${i}`, 'bash', { command: `go test ./services/${service}/... -bench .` }));
    messages.push(result(`t${i}`, `Benchmark-8   \t${1000 + n(9000)}\t${n(900) + 100} ns/op\nok  \tacme/services/${service}\t1.${n(9)}s`));
    const report = [
      `The ${service} handler was allocating per request. Pooling the buffers brings it to ${100 + n(800)} ns per call.`,
      `Round ${i} is done for ${service}. The slow path was the JSON encoder, now a streaming writer.`,
      `The ${service} benchmark is stable across runs. I will keep batch size ${8 * (1 + n(16))} as the default.`,
    ][i % 3];
    reports.push(report);
    messages.push(assistant(report));
  }
  for (let t = 0; t < 30; t++) {
    messages.push(user(`Review file ${t}.`));
    messages.push(call(`p${t}`, 'read_file', { path: `lib/extra_${t}.go` }));
    messages.push(result(`p${t}`, Array.from({ length: 60 + n(40) }, (_, k) => `var v${t}_${k} = ${n(9000)}`).join('\n')));
    messages.push(assistant(`File ${t} looks fine.`));
  }
  return { messages, reports };
}

describe('replaying a session whose agent says what each step came to in one short line', () => {
  for (const seed of [1, 2]) {
    it(`keeps those lines as they were written, not cut into sentences, at a third of the input (seed ${seed})`, async () => {
      const { messages, reports } = tuningSession(seed);
      const { final, figures } = await replayAtShareOfInput(messages, { share: 1 / 3 });
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const context = renderContext(final?.messages ?? [], {
        tokens: figures.finalTokens,
        budget: figures.budget,
        level: figures.finalLevel,
      });
      const whole = reports.filter((line) => context.includes(line));
      assert.ok(whole.length >= reports.length * 0.9, `${whole.length} of ${reports.length} lines shown whole`);
    });
  }
});
