import * as assert from 'node:assert/strict';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { EARLIER_LINES_HEADING, earlierContentRoomOf } from '../../../src/engine/checkpoints/earlierLines';
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
  it('shows the error line of a result offloaded on arrival, which its first and last lines leave out, in its preview', async () => {
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
    const preview = (final?.messages ?? []).flatMap((m) => m.blocks).find((b) => b.type === 'toolResult');
    const refusal = 'error: tenant_12 refused the lock on ledger_2024 (held by the nightly vacuum)';
    assert.ok(preview?.type === 'toolResult' && preview.content.includes(refusal), 'the refusal is in the preview, written as it arrived');
    assert.match(preview.content, /Also in the full result/);
  });

  it('shows the lines of a file whose large read went to a file in the earlier lines a rebase gives room to', async () => {
    const source = Array.from(
      { length: 1200 },
      (_, i) => `export function handler${i}(event: Event${i % 9}) { return route(event, 'queue_${i % 13}'); } // step ${i}`,
    ).join('\n');
    const messages = [
      user('Read src/handlers.ts and tell me which queue the handlers route to.'),
      call('r1', 'read_file', { path: 'src/handlers.ts' }, 'Reading the handlers first.'),
      result('r1', source, false, 'read_file'),
      assistant('Each handler routes its event to one of thirteen queues, chosen by its number.'),
      user('Good. Which handler reads queue_5?'),
      assistant('handler5 and every thirteenth after it.'),
      user('Thanks.'),
      assistant('You are welcome.'),
    ];
    const counter = new TokenCounter(new CharTokenizer());
    const input = (await counter.measure(messages)).total;
    const { figures, session } = await replayTranscript(
      { format: 'openai', messages },
      { maxInputTokens: Math.ceil(input / 2) + 4_096, store: new MemoryStore(), counter },
    );
    assert.equal(session.state.offloads.length, 1);
    const compressed = await session.compress(figures.budget);
    const context = compressed.messages.map(messageText).join('\n');
    const file = session.state.offloads[0].file.split('/').pop() ?? '';
    assert.ok(context.includes(EARLIER_LINES_HEADING));
    assert.ok(context.includes(`\`${file}\``), 'the lines are shown under the file they are in');
    assert.ok(context.includes('> export function handler'), 'lines of the file are back');
  });

  it('quotes a large file read earlier in no more than its share of the room, and leaves the rest of the room unsent', async () => {
    const source = Array.from(
      { length: 900 },
      (_, i) => `def settle_${i}(order): return clearing.post(order, desk='desk_${i % 11}')  # batch ${i}`,
    ).join('\n');
    const messages = [
      user('Open billing/settle.py and tell me which desk the settlements post to.'),
      call('r1', 'read_file', { path: 'billing/settle.py' }, 'Opening the settlement module.'),
      result('r1', source, false, 'read_file'),
      assistant('Every settlement posts to one of eleven desks, chosen by its number.'),
      user('Which settlement posts to desk_4?'),
      assistant('settle_4 and every eleventh after it.'),
    ];
    const counter = new TokenCounter(new CharTokenizer());
    const input = (await counter.measure(messages)).total;
    const { figures, session } = await replayTranscript(
      { format: 'openai', messages },
      { maxInputTokens: Math.ceil(input / 2) + 4_096, store: new MemoryStore(), counter },
    );
    const compressed = await session.compress(figures.budget);
    const context = compressed.messages.map(messageText).join('\n');
    const quoted = context.split('\n').filter((line) => line.startsWith('> def settle_') || line.startsWith('From the offloaded file'));
    assert.ok(
      quoted.some((line) => line.startsWith('> def settle_0')),
      'the file is quoted from its top',
    );
    let tokens = 0;
    for (const line of quoted) tokens += await counter.countText(`${line}\n`);
    const share = earlierContentRoomOf(session.state.earlierRoom);
    assert.ok(tokens <= share, `${tokens} tokens of quoted content in a share of ${share} (room ${session.state.earlierRoom})`);
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

  it("quotes a report's own lines, not the record its harness put under it, and a file's lines all as they are", () => {
    const report = [
      'The rates come from the yearly tables in rates/2024.yaml',
      'The cache keeps them for fifteen minutes',
      "agentId: b41c07e9d2 (for resuming to continue this agent's work if needed)",
      '<usage>total_tokens: 8122',
      'duration_ms: 14274</usage>',
    ].join('\n');
    const quoted = (call: ReturnType<typeof toolCallBlock>) =>
      offloadedResultFacts(toolResultBlock(call.id, report, false), '', call, 'r1', 'report.txt')
        .filter((f) => f.from !== undefined)
        .map((f) => f.text);
    const task = quoted(toolCallBlock('t1', 'Task', { prompt: 'Find where the rates come from.' }));
    assert.ok(task.some((l) => l.includes('fifteen minutes')));
    assert.ok(!task.some((l) => /agentId|total_tokens|duration_ms/.test(l)), task.join('\n'));
    const read = quoted(toolCallBlock('t2', 'Read', { file_path: 'docs/usage.xml' }));
    assert.ok(
      read.some((l) => l.includes('total_tokens')),
      "a file's lines are its own, whatever they look like",
    );
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
