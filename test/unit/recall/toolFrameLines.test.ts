import * as assert from 'node:assert/strict';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { outputLineFacts } from '../../../src/engine/recall/outputLines';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';

/** A shell tool that wraps every command's output in fields of its own, as some agents' shell tools do. */
function framed(command: string, output: string, pgid: number): string {
  return [`Command: ${command}`, 'Directory: (root)', `Output: ${output}`, 'Exit Code: 0', 'Signal: 0', `Process Group PGID: ${pgid}`].join(
    '\n',
  );
}

function session(runs: ReadonlyArray<readonly [string, string]>): Message[] {
  const messages: Message[] = [user('Find out why the nightly export is slow.')];
  runs.forEach(([command, output], i) => {
    messages.push(call(`s${i}`, 'run_shell', { command }), result(`s${i}`, framed(command, output, 70_500 + i * 7)));
  });
  messages.push(assistant('The export spends its time in the index rebuild.'));
  return messages;
}

describe("a shell tool's frame around every command's output", () => {
  it("is no outcome and no earlier line, while each program's own last line still is", () => {
    const messages = session([
      ['du -sh exports/', '4.2G\texports/'],
      ['wc -l exports/nightly.csv', '18446021 exports/nightly.csv'],
      ['python profile_export.py', 'index rebuild: 412.8 s of 431.0 s'],
      ['git log -1 --format=%h', '9c41e2d'],
    ]);
    const lines = [...extractFacts(messages, { maxFacts: 200 }), ...outputLineFacts(messages)].map((f) => f.text);
    assert.ok(!lines.some((l) => /^(?:Signal|Process Group PGID|Exit Code): /.test(l)), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('index rebuild: 412.8 s of 431.0 s')),
      lines.join('\n'),
    );
  });

  it("is told only from several programs: one program's verdict in every run stays its outcome", () => {
    const runs = [1, 2, 3, 4].map((i) => ['npm test', `Tests: ${40 + i} passed, ${40 + i} total`] as const);
    const lines = outputLineFacts(session(runs)).map((f) => f.text);
    assert.ok(
      lines.some((l) => l.endsWith('Tests: 44 passed, 44 total')),
      lines.join('\n'),
    );
  });
});

describe("the record a harness puts under a sub-agent's report", () => {
  it("is no earlier line: neither its usage fields nor the agent's id noted above them, while the report's last line is", () => {
    const report = (id: string, verdict: string) =>
      [
        'The billing module reads its rates from `rates/2024.yaml`.',
        verdict,
        `agentId: ${id} (use SendMessage with to: '${id}' to continue this agent)`,
        '<usage>total_tokens: 54555',
        'tool_uses: 29',
        'duration_ms: 176713</usage>',
      ].join('\n');
    const messages: Message[] = [
      user('Find where the rates come from.'),
      call('t1', 'Task', { description: 'Trace the rates', prompt: 'Find where billing reads its rates.' }),
      result('t1', report('b41c07e9d2', 'Rates are cached for 15 minutes in `RateCache`.')),
      assistant('The rates are cached, so the stale price is the cache.'),
    ];
    const lines = [...extractFacts(messages, { maxFacts: 200 }), ...outputLineFacts(messages)].map((f) => f.text);
    assert.ok(!lines.some((l) => /agentId|total_tokens|duration_ms/.test(l)), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('Rates are cached for 15 minutes in `RateCache`.')),
      lines.join('\n'),
    );
  });
});
