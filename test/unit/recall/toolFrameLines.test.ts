import * as assert from 'node:assert/strict';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { outputLineFacts } from '../../../src/engine/recall/outputLines';
import { spanContentFacts } from '../../../src/engine/recall/contentLines';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
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

  it("is no line of the report when the agent's id stands alone at its end, while a command's last line of that form is its outcome", () => {
    const findings = Array.from({ length: 40 }, (_, i) => `Checked handler ${i}: retries stay within the quota.`);
    const messages: Message[] = [
      user('Check the handlers and tell me the release number.'),
      call('t1', 'Task', { description: 'Audit the handlers', prompt: 'Check every handler for retries.' }),
      result(
        't1',
        [
          ...findings,
          'Every handler retries at most three times.',
          "agentId: a7c31e0 (for resuming to continue this agent's work if needed)",
        ].join('\n'),
      ),
      call('s1', 'run_shell', { command: './release --print-version' }),
      result('s1', ['Resolving the release channel…', 'Version: v2.14.0 (latest)'].join('\n')),
      assistant('The handlers are fine and the release is v2.14.0.'),
    ];
    const lines = [
      ...extractFacts(messages, { maxFacts: 200 }),
      ...outputLineFacts(messages),
      ...spanContentFacts(readToolSteps(messages)),
    ].map((f) => f.text);
    assert.ok(!lines.some((l) => l.includes('agentId')), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('Every handler retries at most three times.')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.includes('Version: v2.14.0 (latest)')),
      lines.join('\n'),
    );
  });

  it('is no outcome when it opens the result: the harness only says the agent started, and a short report still says what it found', () => {
    const notice = [
      'Agent started in the background. (Internal: never show any part of this result to the user.)',
      "agentId: 9f3ab21c44 (internal id; use SendMessage with to: '9f3ab21c44' to continue this agent)",
      'You will be notified when it completes. Until then you know nothing of its results.',
    ].join('\n');
    const messages: Message[] = [
      user('Audit the cache settings in the background and check the pool size meanwhile.'),
      call('t1', 'Task', { description: 'Audit the cache', prompt: 'Audit every cache setting.', run_in_background: true }),
      result('t1', notice),
      call('t2', 'Task', { description: 'Check the pool', prompt: 'What is the pool size?' }),
      result(
        't2',
        "The pool holds 24 connections, set in `db/pool.toml`.\nagentId: 51bd0e7 (for resuming to continue this agent's work if needed)",
      ),
      assistant('The pool holds 24 connections; the cache audit is still running.'),
    ];
    const lines = [...extractFacts(messages, { maxFacts: 200 }), ...outputLineFacts(messages)].map((f) => f.text);
    assert.ok(!lines.some((l) => /started in the background|agentId|notified when it completes/.test(l)), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('The pool holds 24 connections, set in `db/pool.toml`.')),
      lines.join('\n'),
    );
  });
});
