import * as assert from 'node:assert/strict';
import { outputGist, OUTPUT_LINE_MAX_CHARS } from '../../../src/engine/ledger/commandOutput';
import { isLedger } from '../../../src/engine/model/ledgerGuard';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { call, result } from '../support/builders';

describe('command output in the tool record', () => {
  it('keeps the first and last meaningful lines: what the output is and how it ended', () => {
    const output =
      'Compiling 7 files (.ex)\nGenerated spotter app\n......\nFinished in 0.3 seconds\n7 tests, 0 failures\n\nRandomized with seed 1234\n';
    assert.equal(outputGist(output), 'Generated spotter app … Randomized with seed 1234');
  });

  it('keeps a line as it was printed, its column spacing included, so it is found as written', () => {
    assert.equal(
      outputGist('○ spotter-a0y.1 · Add lifecycle hooks   [● P1 · OPEN]'),
      '○ spotter-a0y.1 · Add lifecycle hooks   [● P1 · OPEN]',
    );
    assert.equal(
      outputGist('To github.com:acme/ledger.git\n   4f1c2e9..8b0d7a1  release -> release\n'),
      'To github.com:acme/ledger.git … 4f1c2e9..8b0d7a1  release -> release',
    );
  });

  it("passes over wrappers, prompts, curl's progress meter and lines of markup only", () => {
    const output = [
      '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current',
      '                                 Dload  Upload   Total   Spent    Left  Speed',
      '100    22  100    22    0     0    257      0 --:--:-- --:--:-- --:--:--   268',
      'Hello World from Perl!///PROCESS-DONE:0:PROCESS-DONE///',
      '<br /></body></html>',
      '(Open file: n/a)',
      '(Current directory: /challenge)',
      'bash-$',
    ].join('\n');
    assert.equal(outputGist(output), 'Hello World from Perl!');
    assert.equal(outputGist('<returncode>0</returncode>\n<output>\n</output>'), undefined);
    assert.equal(outputGist(''), undefined);
  });

  it("passes over a script runner's echo of the command it runs", () => {
    assert.equal(
      outputGist('$ biome check --error-on-warnings\nChecked 274 files in 72ms. No fixes applied.'),
      'Checked 274 files in 72ms. No fixes applied.',
    );
    assert.equal(outputGist('\n> shop@1.4.0 build\n> vite build --mode production\n\nbuilt in 2.1s'), 'built in 2.1s');
    // A quoted line of what a command printed is not an echo.
    assert.equal(outputGist('> Note: the cache was cold\nbuilt in 2.1s'), '> Note: the cache was cold … built in 2.1s');
  });

  it("passes over the host's statement of the exit status, in every agent's form", () => {
    for (const status of [
      '<exited with exit code 0>',
      '<shellId: 3 completed with exit code 0>',
      '[The command completed with exit code 0.]',
      'Command `npm test` executed with exit code 0.',
      'Process exited with code 0',
    ]) {
      assert.equal(outputGist(`Tests: 12 passed\n${status}`), 'Tests: 12 passed', status);
    }
  });

  it('cuts long lines', () => {
    const gist = outputGist(`${'a'.repeat(500)}\n${'b'.repeat(500)}`) ?? '';
    assert.ok(gist.length <= 2 * OUTPUT_LINE_MAX_CHARS + 3);
  });

  it('is recorded for commands that worked, once per call, and never for failures', () => {
    const record = recordToolActivity([
      call('c1', 'Bash', { command: 'mix test' }),
      result('c1', 'Compiling 2 files (.ex)\n12 tests, 0 failures'),
      call('c2', 'Bash', { command: 'mix credo' }),
      result('c2', 'Exit code 2\n[W] ↘ Line too long', true),
      call('c3', 'run_commands', { commands: ['npm ci', 'npm test'] }),
      result('c3', 'added 12 packages\nTests: 3 passed'),
    ]);
    assert.deepEqual(
      record.commands.map((c) => [c.command, c.output]),
      [
        ['mix test', '12 tests, 0 failures'],
        ['mix credo', undefined],
        ['npm ci', undefined],
        ['npm test', 'added 12 packages … Tests: 3 passed'],
      ],
    );
  });

  it('is accepted by the ledger guard when it is text, and refused otherwise', () => {
    const command = { callId: 'c1', command: 'ls', ok: true, at: 1 };
    const withOutput = (output: unknown) => ({ ...EMPTY_LEDGER, tools: { ...EMPTY_LEDGER.tools, commands: [{ ...command, output }] } });
    assert.equal(isLedger(withOutput('a.txt')), true);
    assert.equal(isLedger({ ...EMPTY_LEDGER, tools: { ...EMPTY_LEDGER.tools, commands: [command] } }), true);
    assert.equal(isLedger(withOutput(42)), false);
  });
});
