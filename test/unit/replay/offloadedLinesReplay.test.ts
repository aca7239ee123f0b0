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
    assert.equal(session.state.earlierRoomFree, true);
    await session.add([assistant('The log shows one refused tenant; everything else moved.')]);
    assert.equal(session.state.earlierRoomFree, false);
    assert.equal(session.state.earlierRoom, earlierFloorFor(figures.budget));
    const measured = await session.measure(figures.budget);
    assert.ok(measured.tokens < figures.finalTokens, `${measured.tokens} measured after the answer, ${figures.finalTokens} sent`);
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
