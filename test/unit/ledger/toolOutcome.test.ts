import * as assert from 'node:assert/strict';
import { exitCodeFromResult, toolOutcome } from '../../../src/engine/ledger/toolOutcome';
import { toolResultBlock } from '../../../src/engine/types';

/** Result texts as the real transcripts (test/fixtures/transcripts/set1) have them. */
const CLAUDE_CODE_BASH_ERROR =
  'Exit code 128\nfatal: The current branch spotter-gqc has no upstream branch.\n' +
  'To push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin spotter-gqc\n';
const MINI_SWE_AGENT_FAILURE =
  '<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File "/testbed/django/db/backends/utils.py", line 82, in _execute\n' +
  '    return self.cursor.execute(sql)\n';
const MINI_SWE_AGENT_SUCCESS = '<returncode>0</returncode>\n<output>\ntotal 172\ndrwxrwxrwx   1 root root  4096 Oct 24  2024 .\n</output>';
const CLAUDE_CODE_TASK_OUTPUT =
  '<retrieval_status>success</retrieval_status>\n\n<task_id>b7636e2</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n' +
  '<exit_code>0</exit_code>\n\n<output>\n==> file_system\nCompiling 7 files (.ex)\n';
const OPENHANDS_RUN = 'make: *** [Makefile:192: build] Error 2\n[The command completed with exit code 2.]';
const OPENHANDS_OLD = 'ls: cannot access x\n[Command finished with exit code 2]';

describe('tool outcome', () => {
  it('reads exit codes in the forms real agents print them', () => {
    assert.equal(exitCodeFromResult(CLAUDE_CODE_BASH_ERROR), 128);
    assert.equal(exitCodeFromResult(MINI_SWE_AGENT_FAILURE), 1);
    assert.equal(exitCodeFromResult(MINI_SWE_AGENT_SUCCESS), 0);
    assert.equal(exitCodeFromResult(CLAUDE_CODE_TASK_OUTPUT), 0);
    assert.equal(exitCodeFromResult(OPENHANDS_RUN), 2);
    assert.equal(exitCodeFromResult(OPENHANDS_OLD), 2);
    assert.equal(exitCodeFromResult('Command `make` executed with exit code 0.'), 0);
    assert.equal(exitCodeFromResult('Process exited with code 3'), 3);
  });

  it("reads Copilot CLI's exit lines at the end of a shell result", () => {
    assert.equal(exitCodeFromResult('a1b2c3 add the parser\n<exited with exit code 0>'), 0);
    assert.equal(exitCodeFromResult('grep: No such file or directory\n<shellId: 4 completed with exit code 1>'), 1);
    assert.equal(exitCodeFromResult('fatal: not a git repository\n<shellId: build-all completed with exit code 128>'), 128);
    assert.deepEqual(toolOutcome(toolResultBlock('c', 'No tests found\n<exited with exit code 2>'), true), { ok: false, exitCode: 2 });
  });

  it('fails a command whose job in the background ended with a non-zero status, and not one whose job ended well', () => {
    const background = (status: string) =>
      `Listening on :9090\nserve: bind: address already in use\n[1]+  ${status}                 ./serve --port 9090`;
    assert.deepEqual(toolOutcome(toolResultBlock('c', background('Exit 2')), true), { ok: false, exitCode: 2 });
    assert.deepEqual(toolOutcome(toolResultBlock('c', background('Done')), true), { ok: true });
  });

  it('fails a run of a host that writes its state under the output, when the output ends in an uncaught exception', () => {
    const observation = (output: string) => `${output}\n(Open file: /work/decode.py)\n(Current directory: /work)\nbash-$`;
    const traceback = [
      'Traceback (most recent call last):',
      '  File "/work/decode.py", line 7, in <module>',
      '    key = int(raw)',
      "ValueError: invalid literal for int() with base 10: '0x1f'",
    ].join('\n');
    assert.equal(toolOutcome(toolResultBlock('c', observation(traceback)), true).ok, false);
    assert.equal(toolOutcome(toolResultBlock('c', observation('key = 31')), true).ok, true);
  });

  it("fails a piped command whose program's last line says it failed, though the shell reports success", () => {
    // `bun run lint 2>&1 | tail -3`: tail succeeds, the script did not.
    const runner = 'Found 2 errors.\n  × Some errors were emitted while running checks.\nerror: script "lint" exited with code 1\n';
    assert.deepEqual(toolOutcome(toolResultBlock('c', runner), true), { ok: false, exitCode: 1 });
    assert.equal(exitCodeFromResult('panic: missing key\n\ngoroutine 1 [running]:\nexit status 2'), 2);
    assert.equal(exitCodeFromResult('cc -o app main.o\nmake: *** [Makefile:12: app] Error 1'), 1);
    assert.equal(exitCodeFromResult('gmake[2]: *** [src/CMakeFiles/app.dir/build.make:76: app] Error 2'), 2);
    // Copilot CLI says the pipeline succeeded after the program said it failed.
    assert.equal(
      exitCodeFromResult('npm error Lifecycle script failed\nnpm error command failed with exit code 1.\n<exited with exit code 0>'),
      1,
    );
  });

  it("takes no failure from a success or from a line before the program's last", () => {
    assert.equal(exitCodeFromResult('worker exited with code 0'), undefined);
    assert.equal(exitCodeFromResult('child exited with code 1\nretrying\nall 12 jobs done'), undefined);
    assert.deepEqual(toolOutcome(toolResultBlock('c', 'Tests: 12 passed\n<exited with exit code 0>'), true), { ok: true, exitCode: 0 });
  });

  it('does not take an exit code from the middle of a long output', () => {
    const source = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    source[20] = 'Exit code 1';
    assert.equal(exitCodeFromResult(source.join('\n')), undefined);
    assert.equal(exitCodeFromResult('     107\t          env.exitcode(0)'), undefined);
  });

  it('fails a command with a non-zero exit code even when the result is not flagged as an error', () => {
    assert.deepEqual(toolOutcome(toolResultBlock('c', MINI_SWE_AGENT_FAILURE), true), { ok: false, exitCode: 1 });
    assert.deepEqual(toolOutcome(toolResultBlock('c', MINI_SWE_AGENT_SUCCESS), true), { ok: true, exitCode: 0 });
  });

  it('fails any call whose result is flagged as an error, with or without an exit code', () => {
    assert.deepEqual(toolOutcome(toolResultBlock('c', CLAUDE_CODE_BASH_ERROR, true), true), { ok: false, exitCode: 128 });
    assert.deepEqual(toolOutcome(toolResultBlock('c', '<tool_use_error>File does not exist.</tool_use_error>', true), false), {
      ok: false,
    });
  });

  it('fails a command that stated no status but whose output ends as a failed run, and trusts a status it stated', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "tools/import_rates.py", line 37, in main',
      '    rate = int(row["bps"])',
      "ValueError: invalid literal for int() with base 10: '12.5'",
    ].join('\n');
    assert.deepEqual(toolOutcome(toolResultBlock('c', traceback), true), { ok: false });
    assert.deepEqual(toolOutcome(toolResultBlock('c', `${traceback}\nExit code 0`), true), { ok: true, exitCode: 0 });
    assert.deepEqual(toolOutcome(toolResultBlock('c', traceback), false), { ok: true }, 'a file that holds a traceback is no failed run');
    assert.deepEqual(toolOutcome(toolResultBlock('c', 'F.\n1 failed, 1 passed in 0.04s'), true), { ok: false });
    assert.deepEqual(toolOutcome(toolResultBlock('c', '..\n2 passed in 0.03s'), true), { ok: true });
  });

  it('reads exit codes only for commands', () => {
    assert.deepEqual(toolOutcome(toolResultBlock('c', 'Exit code 1\nsome file text'), false), { ok: true });
  });

  it('fails a Cline-style JSON result that reports "success": false', () => {
    assert.deepEqual(toolOutcome(toolResultBlock('c', '[{"query":"a.ts","result":"ENOENT","success":false}]'), false), { ok: false });
    assert.deepEqual(toolOutcome(toolResultBlock('c', '{"query":"edit:a.ts","result":"Edited a.ts","success":true}'), false), { ok: true });
  });
});
