import * as assert from 'node:assert/strict';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { EARLIER_LINES_HEADING, earlierFloorFor } from '../../../src/engine/checkpoints/earlierLines';
import { offloadedResultFacts } from '../../../src/engine/recall/offloadedFacts';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { messageText, toolCallBlock, toolResultBlock } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { CharTokenizer } from '../support/fakes';

/** A migration run's log: thousands of progress rows, one refusal early on, a verdict at the end. */
function migrationLog(): string {
  const rows = Array.from({ length: 3000 }, (_, i) => `applied row ${i} of tenant_${i % 37} to the ledger table in shard ${i % 5}`);
  rows.splice(40, 0, 'error: tenant_12 refused the lock on ledger_2024 (held by the nightly vacuum)');
  return ['Starting migration 0042_split_ledger', ...rows, 'Migration finished with 1 refused tenant'].join('\n');
}

describe('what an offloaded result said, while the context has room', () => {
  it('shows the error line of a result offloaded on arrival, which its preview leaves out, in a session that needs no checkpoint', async () => {
    const messages = [
      user('Run the ledger migration on staging and tell me which tenants it could not move.'),
      call('m1', 'bash', { command: './migrate.sh 0042_split_ledger --env staging' }, 'Running the migration now.'),
      result('m1', migrationLog()),
      assistant('The migration ran through; I am checking the log for tenants it skipped.'),
    ];
    const counter = new TokenCounter(new CharTokenizer());
    const input = (await counter.measure(messages)).total;
    const { final, figures, session } = await replayTranscript(
      { format: 'openai', messages },
      { maxInputTokens: Math.ceil(input / 2) + 4_096, store: new MemoryStore(), counter },
    );
    assert.equal(figures.checkpoints, 0, 'the offload alone made it fit');
    assert.equal(session.state.offloads.length, 1);
    const context = (final?.messages ?? []).map(messageText).join('\n');
    const refusal = 'error: tenant_12 refused the lock on ledger_2024 (held by the nightly vacuum)';
    assert.ok(context.includes(EARLIER_LINES_HEADING) && context.includes(refusal), 'the refusal is back in the free room');
    assert.ok(figures.finalTokens >= 0.5 * figures.budget || session.state.earlierLines.every((l) => context.includes(l.key)));

    // Once the answer joins (and the status bar measures it), the free room sized for the last request is given back.
    assert.ok((session.state.earlierPrintedRoom ?? 0) > 0, 'the room shown was free');
    await session.add([assistant('The log shows one refused tenant; everything else moved.')]);
    assert.equal(session.state.earlierPrintedRoom, 0);
    assert.equal(session.state.earlierRoom, earlierFloorFor(figures.budget));
    const measured = await session.measure(figures.budget);
    assert.ok(measured.tokens < figures.finalTokens, `${measured.tokens} measured after the answer, ${figures.finalTokens} sent`);
  });

  it("fills a context whose large read went to a file with that file's lines, so the replay uses most of its budget", async () => {
    const source = Array.from(
      { length: 1200 },
      (_, i) => `export function handler${i}(event: Event${i % 9}) { return route(event, 'queue_${i % 13}'); } // step ${i}`,
    ).join('\n');
    const messages = [
      user('Read src/handlers.ts and tell me which queue the handlers route to.'),
      call('r1', 'read_file', { path: 'src/handlers.ts' }, 'Reading the handlers first.'),
      result('r1', source, false, 'read_file'),
      assistant('Each handler routes its event to one of thirteen queues, chosen by its number.'),
    ];
    const counter = new TokenCounter(new CharTokenizer());
    const input = (await counter.measure(messages)).total;
    const { final, figures, session } = await replayTranscript(
      { format: 'openai', messages },
      { maxInputTokens: Math.ceil(input / 2) + 4_096, store: new MemoryStore(), counter },
    );
    assert.equal(figures.checkpoints, 0);
    assert.equal(session.state.offloads.length, 1);
    const context = (final?.messages ?? []).map(messageText).join('\n');
    const file = session.state.offloads[0].file.split('/').pop() ?? '';
    assert.ok(context.includes(`\`${file}\``), 'the lines are shown under the file they are in');
    assert.ok(context.includes('> export function handler140(event: Event5)'), 'a line well past the preview and its outline is back');
    // The pool keeps at most half the budget: with the rest of this short session, the context ends above 60%.
    assert.ok(figures.finalUsage >= 0.6, `the context uses ${(figures.finalUsage * 100).toFixed(1)}% of its budget`);
    assert.ok(figures.finalUsage < 0.75, 'and stays below RED');
  });

  it('takes no lines of content from a binary result, and none without letters', () => {
    const original = toolResultBlock(
      'b1',
      Array.from({ length: 50 }, (_, i) => `${i} ${'#'.repeat(i % 7)} 0x${i.toString(16)}`).join('\n'),
      false,
    );
    const lines = offloadedResultFacts(original, '', undefined, 'r1', 'dump.txt').filter((f) => f.from !== undefined);
    assert.deepEqual(lines, [], 'lines without four letters say nothing');
    const text = toolResultBlock('t1', 'the first line of the report\nthe second line of the report', false);
    assert.equal(
      offloadedResultFacts(text, '', undefined, 'r1').filter((f) => f.from !== undefined).length,
      0,
      'no file named, no content lines',
    );
    assert.equal(offloadedResultFacts(text, '', undefined, 'r1', 'report.txt').filter((f) => f.from === 'report.txt').length, 2);
  });

  it('reads the facts beyond the preview only, each to be shown in free room and never in the counted floor', () => {
    const original = toolResultBlock('m1', migrationLog(), false);
    const preview = 'Starting migration 0042_split_ledger\n… 3,000 lines omitted …\nMigration finished with 1 refused tenant';
    const facts = offloadedResultFacts(original, preview, toolCallBlock('m1', 'bash', { command: './migrate.sh' }), 'r1');
    assert.ok(facts.some((f) => f.kind === 'error' && f.key.startsWith('error: tenant_12 refused the lock')));
    assert.ok(facts.every((f) => f.printed === true));
    assert.ok(!facts.some((f) => f.key === 'Migration finished with 1 refused tenant'), 'the preview shows it already');
  });
});
