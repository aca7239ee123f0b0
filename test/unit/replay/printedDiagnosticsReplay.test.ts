import * as assert from 'node:assert/strict';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { MAX_DIAGNOSTICS_PER_RESULT } from '../../../src/engine/recall/diagnosticLines';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { CharTokenizer } from '../support/fakes';
import { seededRandom } from '../tokens/seededRandom';

const MODULES = ['parser', 'lexer', 'planner', 'optimizer', 'executor', 'catalog', 'storage', 'network'];

/** A type checker's run over a workspace: progress lines, then a block of diagnostics in the middle, then more progress. */
function typeCheckOutput(diagnostics: readonly string[]): string {
  const progress = (from: number) =>
    Array.from({ length: 40 }, (_, i) => `checking packages/${MODULES[(from + i) % MODULES.length]}/src/part_${from + i}.ts`);
  return [
    'Type-checking 312 files in 8 packages',
    ...progress(0),
    ...diagnostics,
    ...progress(40),
    `Found ${diagnostics.length} errors in 4 files.`,
  ].join('\n');
}

/**
 * A type migration unlike the shared transcripts: an early type check fails with a dozen diagnostics
 * in the middle of its output; the agent fixes some and works around the others by excluding a package,
 * then goes on with unrelated work that pushes the first third out of the live context.
 */
function migrationSession(seed: number): { messages: Message[]; diagnostics: readonly string[] } {
  const next = seededRandom(seed);
  const diagnostics = Array.from(
    { length: 12 },
    (_, i) =>
      `packages/${MODULES[i % MODULES.length]}/src/index.ts(${10 + i * 7},${3 + i}): error TS2${300 + i * 11}: Property 'legacy_${i}' is missing.`,
  );
  const rows = (lines: number) =>
    Array.from({ length: lines }, (_, i) => `plan_${i} cost=${Math.floor(next() * 9000)} rows=${Math.floor(next() * 500)}`).join('\n');
  const messages: Message[] = [
    user('Move the query planner to the new Plan type and keep the build green.'),
    assistant('I will run the type checker first to see what the new type breaks.'),
    call('c1', 'shell', { command: 'npx tsc -b packages' }),
    result('c1', typeCheckOutput(diagnostics), true),
    assistant('The catalog package can wait: I exclude it from the build and fix the planner first.'),
    call('c2', 'shell', { command: 'npx tsc -b packages/planner' }),
    result('c2', 'Type-checking 41 files in 1 package\nDone.'),
  ];
  for (let turn = 0; turn < 40; turn++) {
    messages.push(user(`Now profile query ${turn}.`));
    messages.push(assistant(`Profiling query ${turn} against the sample data.`));
    messages.push(call(`p${turn}`, 'shell', { command: `node bench/plan.js --query ${turn}` }));
    messages.push(result(`p${turn}`, rows(50 + Math.floor(next() * 60))));
    messages.push(assistant(`Query ${turn} costs about the same as before.`));
  }
  return { messages, diagnostics };
}

describe('replaying a session whose failed run printed more diagnostics than a checkpoint keeps', () => {
  for (const seed of [1, 2]) {
    it(`shows the run's other diagnostic lines in the room the context has, verbatim (seed ${seed})`, async () => {
      const { messages, diagnostics } = migrationSession(seed);
      const counter = new TokenCounter(new CharTokenizer());
      const input = (await counter.measure(messages)).total;
      const { final, figures } = await replayTranscript(
        { format: 'openai', messages },
        { maxInputTokens: Math.ceil(input / 2) + 4_096, store: new MemoryStore(), counter },
      );
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const live = final?.messages ?? [];
      assert.ok(!live.some((m) => m.blocks.some((b) => b.type === 'toolResult' && b.callId === 'c1')), 'the run itself is no longer live');
      const context = live.map(messageText).join('\n');
      const kept = diagnostics.filter((line) => context.includes(line));
      assert.ok(
        kept.length > MAX_DIAGNOSTICS_PER_RESULT + 4,
        `${kept.length} of ${diagnostics.length} diagnostic lines are in the final context (${figures.finalTokens} of ${figures.budget} tokens)`,
      );
    });
  }
});
