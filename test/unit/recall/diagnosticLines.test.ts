import * as assert from 'node:assert/strict';
import { diagnosticStrength, errorLinesOf } from '../../../src/engine/ledger/diagnosticForms';
import { diagnosticCandidates, diagnosticKind, diagnosticLinesOf } from '../../../src/engine/recall/diagnosticLines';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { errorSummary } from '../../../src/engine/ledger/errorSummary';
import { call, result } from '../support/builders';
import { withPatternTests } from '../support/patternTests';

/** The pattern tests that reading the diagnostic lines of a command's output takes: a count of work, not a time. */
async function patternTests(output: string): Promise<number> {
  const [step] = readToolSteps([call('b1', 'bash', { command: 'make' }), result('b1', output)]);
  return (await withPatternTests(() => diagnosticLinesOf(step))).tests;
}

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n');

/** The texts of the diagnostic lines of one call to `name` with `input` that printed `output`. */
const diagnosticTexts = (name: string, input: Record<string, string>, output: string) =>
  diagnosticLinesOf(readToolSteps([call('c1', name, input), result('c1', output)])[0]).map((l) => l.text);

describe('diagnostic lines of a result', () => {
  it("reads a search's hit on a line of code as the file's line, and a compiler's located diagnostic as one", () => {
    assert.equal(diagnosticStrength('internal/telemetry/uploader.go:147:\t\t\treturn retry.RetryableError(u.queue.Remove(item))'), 0);
    assert.equal(diagnosticStrength('cmd/setup.go-141-\t\treturn fmt.Errorf("failed to open the store: %w", err)'), 0);
    assert.equal(diagnosticStrength('internal/telemetry/uploader.go:147:12: undefined: RetryableError'), 3);
    assert.equal(diagnosticStrength('src/a.ts(12,5): error TS2322: Type string is not assignable'), 3);
  });

  it("reads an object literal's property whose value is a call as code, whatever its key, and a message after a label as a diagnostic", () => {
    assert.equal(diagnosticStrength('error: document.getElementById("error"),'), 0);
    assert.equal(diagnosticStrength("fatal: logger.bind(console, 'fatal');"), 0);
    assert.equal(diagnosticStrength('error: cannot open file (permission denied)'), 3);
    assert.equal(diagnosticStrength('TypeError: fetchJson(...).then is not a function'), 3);
    const attached = [
      '<attachments>',
      '<attachment id="file:index.html">',
      '```html',
      '  const els = {',
      '    results: document.getElementById("results"),',
      '    error: document.getElementById("error"),',
      '  };',
      '```',
      '</attachment>',
      '</attachments>',
    ].join('\n');
    assert.deepEqual(errorLinesOf(attached, 3, 3), []);
  });

  it("reads a search's hits as the lines of the files it matched, whatever they say, and its own complaint as an error", () => {
    const hits = [
      'docs/errors.md:12:- Connection refused means the queue service is down',
      "src/copy.ts-17-  missingConfig: 'Config file could not be read',",
      '41:    expired: "Token expired: permission denied"',
      'C:\\work\\shop\\README.md:88:If the build fails with "module not found", run npm ci.',
      'grep: vendor/cache: No such file or directory',
    ].join('\n');
    const read = (name: string, input: Record<string, string>) => diagnosticTexts(name, input, hits);
    const complaint = ['grep: vendor/cache: No such file or directory'];
    assert.deepEqual(read('bash', { command: 'grep -rn "refused\\|denied\\|not found" docs src vendor/cache' }), complaint);
    assert.deepEqual(read('bash', { command: 'cd shop && rg -n -C1 "could not" src | head -40' }), complaint);
    assert.deepEqual(read('Grep', { pattern: 'denied', path: 'config' }), complaint);
    // The same lines printed by a build are its diagnostics: a compiler names the place before its complaint too.
    assert.equal(read('bash', { command: 'grep -c x a.txt && make check' }).length, hits.split('\n').length);
  });

  it("reads a delegated agent's sentence about exit codes as its report, and an error line it quotes as an error", () => {
    const report = [
      'The sync command checks the lock file first. If the lock is stale, it aborts with exit code 1 and prints the owner.',
      'When I ran it against the sample repository it printed:',
      'Error: lock held by pid 4121 since 09:12',
    ].join('\n');
    const read = (name: string) => diagnosticTexts(name, { prompt: 'explain the sync lock' }, report);
    assert.deepEqual(read('Task'), ['Error: lock held by pid 4121 since 09:12']);
    assert.equal(read('bash').length, 2, 'the same lines a command printed are its diagnostics, as ever');
  });

  it('keeps a warning beside the tally that counts it when there is room for both, and errors over warnings when there is not', () => {
    const read = (output: string) =>
      diagnosticCandidates(readToolSteps([call('b1', 'bash', { command: 'make docs' }), result('b1', output)])[0]).map((f) => f.key);
    const built = [
      'WARNING: while loading plugin charts: renderer svg is registered twice, the second one wins',
      'Rendering 14 pages',
      'rendering done, 1 warning.',
    ].join('\n');
    assert.deepEqual(read(built), [
      'WARNING: while loading plugin charts: renderer svg is registered twice, the second one wins',
      'rendering done, 1 warning.',
    ]);
    const crowded = [
      'WARNING: theme option sidebar_width is deprecated',
      'WARNING: page intro has no title',
      'error: page api/client.md links to a missing anchor #retry',
      'error: page api/server.md links to a missing anchor #auth',
      'build failed with 2 errors, 2 warnings.',
    ].join('\n');
    assert.ok(
      read(crowded).every((line) => !line.startsWith('WARNING')),
      read(crowded).join(' | '),
    );
  });

  it("reads PowerShell's error record by its shape, in any language, as an error on the message it opens with", () => {
    const record = (message: string[], place: string) =>
      [
        'Output:',
        ...message,
        place,
        '+ Get-Item C:\\builds\\nightly\\report.json',
        '+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
        '    + CategoryInfo          : ObjectNotFound: (C:\\builds\\nightly\\report.json:String) [Get-Item], ItemNotFoundException',
        '    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.GetItemCommand',
      ].join('\n');
    const read = (output: string) =>
      diagnosticLinesOf(readToolSteps([call('p1', 'execute_command', { command: 'Get-Item' }), result('p1', output)])[0]);
    const english = read(record(["Get-Item : Access to the path 'C:\\builds\\nightly\\report.json' is denied."], 'At line:1 char:1'));
    assert.equal(english[0]?.text, "Get-Item : Access to the path 'C:\\builds\\nightly\\report.json' is denied.");
    assert.equal(english[0]?.strength, 3);
    const french = read(
      record(
        [
          "Get-Item : Impossible de trouver le chemin d'accès « C:\\builds\\nightly\\report.json », car il n'existe pas. Vérifiez le",
          'chemin et réessayez.',
        ],
        'Au caractère Ligne:1 : 1',
      ),
    );
    assert.match(french[0]?.text ?? '', /^Get-Item : Impossible de trouver le chemin d'accès/);
    assert.equal(errorSummary(record(['Get-Item : Accès refusé.'], 'Au caractère Ligne:1 : 1')), 'Get-Item : Accès refusé.');
  });

  it("reads PowerShell 7's concise error view by its frame: the message after the underline's bar, not the frame", () => {
    const output = [
      'rg: ',
      'Line |',
      '   3 |  rg -n "retry_after" api/ | Select-Object -First 5',
      '     |  ~~',
      "     | The term 'rg' is not recognized as a name of a cmdlet, function, script file, or executable program.",
      'Check the spelling of the name, or if a path was included, verify that the path is correct and try again.',
      '<shellId: 2 completed with exit code 1>',
    ].join('\n');
    const message = "The term 'rg' is not recognized as a name of a cmdlet, function, script file, or executable program.";
    assert.equal(errorSummary(output), message);
    const steps = readToolSteps([
      call('p1', 'powershell', { command: 'rg -n "retry_after" api/ | Select-Object -First 5' }),
      result('p1', output, true),
    ]);
    assert.equal(diagnosticLinesOf(steps[0])[0]?.text, message);
  });

  it("reads a compiler's complaint that prints a whole type as a diagnostic, on its head, and another long line as data", () => {
    const type = `{ ${Array.from({ length: 30 }, (_, i) => `readonly option${i}: { readonly type: "string" }`).join('; ')} }`;
    const output = [
      `src/config/load.ts:88:21 - error TS2322: Type 'number' is not assignable to type '${type}'.`,
      `const settings = ${type};`,
    ].join('\n');
    const found = diagnosticLinesOf(readToolSteps([call('b1', 'bash', { command: 'npm run build' }), result('b1', output, true)])[0]);
    assert.equal(found.length, 1);
    assert.match(found[0].text, /^src\/config\/load\.ts:88:21 - error TS2322: Type 'number' is not assignable to type/);
  });

  it("reads the lines a diff adds or removes as files' lines, and the lines around the diff as ever", () => {
    const output = [
      'diff --git a/docs/ops.md b/docs/ops.md',
      '@@ -12,4 +12,4 @@',
      '-Error: the audit log could not be rotated (see the retention settings)',
      '+Fatal: the audit log is full; rotate it before the next export',
      'error: patch failed: docs/ops.md:12',
    ].join('\n');
    const [step] = readToolSteps([call('d1', 'bash', { command: 'git apply fix.patch' }), result('d1', output, true)]);
    assert.deepEqual(
      diagnosticLinesOf(step).map((l) => l.text),
      ['error: patch failed: docs/ops.md:12'],
    );
  });

  it('reads the line a traceback ends with as an exception, however it is named, in a result and in a pasted text', () => {
    const output = [
      'charging 3 tenants',
      'Traceback (most recent call last):',
      '  File "quota/charge.py", line 27, in <module>',
      '    charge(tenant)',
      'quota.rules.QuotaExhausted: tenant 7 has no credits left',
      'charged 2 of 3 tenants',
    ].join('\n');
    const [step] = readToolSteps([call('q1', 'bash', { command: 'python quota/charge.py' }), result('q1', output)]);
    const exception = 'quota.rules.QuotaExhausted: tenant 7 has no credits left';
    assert.equal(diagnosticStrength(exception), 0, 'alone, the line reads as no diagnostic');
    assert.deepEqual(
      diagnosticLinesOf(step).map((l) => [l.text, l.strength]),
      [[exception, 3]],
    );
    assert.ok(diagnosticCandidates(step).some((c) => c.text === exception));
    assert.deepEqual(errorLinesOf(`Our nightly run printed this:\n${output}`, 3), [exception], 'a pasted log');
    assert.deepEqual(
      diagnosticLinesOf(
        readToolSteps([call('q2', 'bash', { command: 'cat notes.txt' }), result('q2', 'StopRun\ncharged 3 of 3 tenants')])[0],
      ),
      [],
    );
  });

  it("reads an exception's name by its capital, so the end of a line a console wrapped is no diagnostic of its own", () => {
    const output = [
      "Get-Item : Cannot find path 'C:\\ledger\\rates.csv' because it does not exist.",
      '    + CategoryInfo          : ObjectNotFound: (C:\\ledger\\rates.csv:String) [Get-Item], ItemNo',
      '   tFoundException',
    ].join('\n');
    const [step] = readToolSteps([call('p1', 'powershell', { command: 'Get-Item C:\\ledger\\rates.csv' }), result('p1', output, true)]);
    const lines = diagnosticLinesOf(step).map((l) => l.text);
    assert.ok(!lines.includes('tFoundException'), lines.join(' | '));
    assert.ok(
      lines.some((l) => l.startsWith('Get-Item : Cannot find path')),
      lines.join(' | '),
    );
    for (const named of ['KeyError: 12', 'java.lang.IllegalStateException', '_RemoteError: lost', 'Error: boom']) {
      assert.equal(diagnosticStrength(named), 3, named);
    }
  });

  it('reads a line once however often it repeats: a log’s repeated lines cost a fraction of new ones', async () => {
    const base = await patternTests(lines(1, () => 'compiling module 0'));
    const perNewLine = ((await patternTests(lines(201, (i) => `compiling module ${i}`))) - base) / 200;
    const perRepeat = ((await patternTests(lines(201, () => 'compiling module 0'))) - base) / 200;
    assert.ok(perNewLine > 10, `a new line is read with every form (${perNewLine} tests)`);
    assert.ok(perRepeat < perNewLine / 4, `a repeated line: ${perRepeat} tests, a new one ${perNewLine}`);
  });

  it("reads the message at a source location under a failed test's mark as what the test failed with, flagged or not", () => {
    const output = [
      '=== RUN   TestParserWindow',
      '--- FAIL: TestParserWindow (0.00s)',
      '    parser_test.go:22: got 6 windows, want 7',
      'FAIL',
      'FAIL\tgithub.com/acme/app/internal/parser\t0.06s',
    ].join('\n');
    for (const flagged of [true, false]) {
      const [step] = readToolSteps([call('g1', 'bash', { command: 'go test ./internal/parser/...' }), result('g1', output, flagged)]);
      const cause = diagnosticLinesOf(step).find((l) => l.failedTest === 'cause');
      assert.equal(cause?.text, 'parser_test.go:22: got 6 windows, want 7', `flagged: ${flagged}`);
      assert.ok(
        diagnosticCandidates(step).some((c) => c.text === 'parser_test.go:22: got 6 windows, want 7'),
        `an error fact, flagged: ${flagged}`,
      );
    }
    // A located line with no failed test above it is a search's hit or a log's line, not a diagnostic.
    const [grep] = readToolSteps([
      call('s1', 'bash', { command: 'grep -n windows *.go' }),
      result('s1', 'parser.go:22: got windows from the span'),
    ]);
    assert.deepEqual(diagnosticLinesOf(grep), []);
  });

  it("shows a failed test's summary mark at the place its stack frames above it name", () => {
    // bun prints a test's frames above its `(fail)` line; here the host cut the failure's message off.
    const bun = [
      'tests/ledger.test.ts:',
      '[… 4,210 characters cut by the host …]',
      '      at <anonymous> (/home/dev/ledger/node_modules/expect/build/index.js:88:11)',
      '      at <anonymous> (/home/dev/ledger/tests/ledger.test.ts:318:27)',
      '(fail) ledger > totals > rounds half-cents up [0.41ms]',
      '',
      ' 211 pass',
      ' 1 fail',
    ].join('\n');
    const marks = (command: string, output: string) => {
      const [step] = readToolSteps([call('t1', 'bash', { command }), result('t1', output, true)]);
      return { step, mark: diagnosticLinesOf(step).find((l) => l.failedTest === 'mark')?.text };
    };
    const ran = marks('bun test', bun);
    assert.equal(ran.mark, '/home/dev/ledger/tests/ledger.test.ts:318:27: (fail) ledger > totals > rounds half-cents up [0.41ms]');
    assert.ok(diagnosticCandidates(ran.step).some((c) => c.text.startsWith('/home/dev/ledger/tests/ledger.test.ts:318:27: (fail)')));
    // The frames under a mark are the next test's.
    const next = `(fail) ledger > totals > keeps cents [0.12ms]\n      at <anonymous> (/home/dev/ledger/tests/ledger.test.ts:290:9)\n${bun}`;
    assert.equal(marks('bun test', next).mark, '(fail) ledger > totals > keeps cents [0.12ms]');
    // A mark with no frame of a source file on its side stays as printed.
    const bare = bun.replace('      at <anonymous> (/home/dev/ledger/tests/ledger.test.ts:318:27)\n', '');
    assert.equal(marks('bun test', bare).mark, '(fail) ledger > totals > rounds half-cents up [0.41ms]');
  });

  it('reads the errors a passing run logs as its tests checking failures on purpose, and those of a failing run as errors', () => {
    const run = (tally: string) =>
      [
        'bun test v1.3.5',
        '[Limiter] task 2 failed:',
        'error: Quota of the ledger exceeded',
        '      at <anonymous> (/home/dev/ledger/tests/limiter.test.ts:40:11)',
        tally,
        'Ran 212 tests across 9 files. [1.20s]',
      ].join('\n');
    const read = (output: string, ok: boolean) =>
      diagnosticLinesOf(readToolSteps([call('t1', 'bash', { command: 'bun test' }), result('t1', output, !ok)])[0]).map((l) => l.text);
    assert.deepEqual(read(run(' 212 pass\n 0 fail'), true), []);
    const failing = '(fail) limiter > stops at its quota [0.20ms]\n 211 pass\n 1 fail';
    assert.ok(read(run(failing), true).includes('error: Quota of the ledger exceeded'), 'a run that marks a failed test');
    const jest = 'Tests:       1 failed, 211 passed, 212 total';
    assert.ok(
      read(run(jest).replace(/\nRan .*$/, ''), true).includes('error: Quota of the ledger exceeded'),
      'a tally that counts a failure',
    );
    assert.ok(read(run(' 212 pass\n 0 fail'), false).includes('error: Quota of the ledger exceeded'), 'a run that failed');
    // With no tally the run's errors are read as ever.
    assert.ok(read('error: Quota of the ledger exceeded\nDone in 1.2s', true).includes('error: Quota of the ledger exceeded'));
  });

  it("reads a short answer that opens with a diagnostic as the reading command's complaint, and a long file as a file", () => {
    const complaint = [
      "error: the argument '--plain' cannot be used with '--number'",
      '',
      'Usage: view --plain <FILE>',
      '',
      "For more information, try '--help'.",
    ].join('\n');
    const [failed] = readToolSteps([call('r1', 'bash', { command: 'cat -n src/view.tsx' }), result('r1', complaint)]);
    assert.equal(failed.activity.kind, 'file', 'a read of a file');
    assert.deepEqual(
      diagnosticLinesOf(failed).map((l) => l.text),
      ["error: the argument '--plain' cannot be used with '--number'"],
    );
    const file = ['error: the parser rejects nested tables', ...lines(30, (i) => `line ${i} of the notes`)].join('\n');
    const [read] = readToolSteps([call('r2', 'bash', { command: 'cat docs/known-issues.txt' }), result('r2', file)]);
    assert.deepEqual(diagnosticLinesOf(read), []);
  });

  it("reads the lines of a log the agent opened as what programs printed, and another file's lines as text", () => {
    const log = [
      '2026-03-02 02:00:01 INFO  starting export batch=118',
      '2026-03-02 02:00:04 INFO  fetched 2391 rows',
      '2026-03-02 02:00:05 ERROR export failed: duplicate key value violates unique constraint "exports_pkey"',
      '2026-03-02 02:00:05 INFO  rolling back',
      '2026-03-02 02:00:05 INFO  done status=failed',
    ].join('\n');
    const read = (name: string, input: Record<string, string>) => diagnosticTexts(name, input, log);
    const error = ['ERROR export failed: duplicate key value violates unique constraint "exports_pkey"'];
    assert.deepEqual(read('bash', { command: 'tail -n 5 var/nightly-export.log' }), error);
    assert.deepEqual(read('Read', { file_path: '/srv/app/logs/export-2026-03-02.txt' }), error);
    assert.deepEqual(read('Read', { file_path: '/srv/app/log/worker.log.1' }), error);
    // The same lines in a file someone wrote (a runbook quoting a log) are its text.
    assert.deepEqual(read('Read', { file_path: '/srv/app/docs/runbook.md' }), []);
  });

  it('finds a diagnostic among repeated lines where it stands, once', () => {
    const output = [...Array(50).fill('compiling module 0'), 'src/a.c:3:5: error: x undeclared', ...Array(50).fill('compiling module 0')];
    const [step] = readToolSteps([call('b1', 'bash', { command: 'make' }), result('b1', [...output, ...output].join('\n'))]);
    assert.deepEqual(
      diagnosticLinesOf(step).map((l) => l.text),
      ['src/a.c:3:5: error: x undeclared'],
    );
  });

  it('reads the forms looked for by a word first in any case: localized errors in any script, warnings, tallies', () => {
    const read = (lines: readonly string[]) => lines.map((line) => [line, diagnosticStrength(line)]);
    const errors = [
      'ОШИБКА: файл не найден',
      'ERREUR : échec de la compilation',
      'ビルドエラー: 失敗しました',
      'BUILD FINISHED WITH 2 ERRORS',
    ];
    assert.deepEqual(
      read(errors),
      errors.map((line) => [line, 2]),
    );
    assert.deepEqual(read(['NPM WARN deprecated glob@7.2.3', 'FAILED: 0, PASSED: 12']), [
      ['NPM WARN deprecated glob@7.2.3', 1],
      ['FAILED: 0, PASSED: 12', 0],
    ]);
  });

  it("reads a logger's warning level, after a system log's prefix too, as a warning, and no sentence that starts with Warn", () => {
    const logged = [
      'WARN  billing::sync: batch 61 dropped, upstream answered 413',
      '[worker-3] WARNING invoice 88 has no currency, defaulting to EUR',
      'time="2026-03-03T11:01:44Z" level=warning msg="token expires in 2 days"',
      '{"level":"warn","msg":"retrying the export, attempt 2 of 5"}',
      'W0303 11:01:44.123456    4121 controller.go:88] lease renewal is slow',
    ];
    assert.deepEqual(
      logged.map((line) => diagnosticStrength(line)),
      logged.map(() => 1),
    );
    assert.equal(diagnosticStrength('Warn the owner before deleting the export'), 0);
    const journal = [
      lines(30, (i) => `Mar 03 10:${String(10 + i)}:12 web-2 sync-worker[4121]: INFO synced batch ${i}`),
      'Mar 03 11:01:44 web-2 sync-worker[4121]: WARN batch 61 dropped: upstream returned 413 Payload Too Large',
      lines(5, (i) => `Mar 03 11:0${2 + i}:12 web-2 sync-worker[4121]: INFO synced batch ${62 + i}`),
    ].join('\n');
    assert.deepEqual(diagnosticTexts('bash', { command: 'journalctl -u sync-worker' }, journal), [
      'WARN batch 61 dropped: upstream returned 413 Payload Too Large',
    ]);
  });

  it("takes each kind of a linter's complaints once before a second place of the same kind", () => {
    const output = [
      lines(40, (i) => `docs/guide-${i}.md:${i + 3}:121 error MD013/line-length Line length [Expected: 120; Actual: ${130 + i}]`),
      'docs/api.md:25:13 error MD034/no-bare-urls Bare URL used [Context: "https://example.org/v1"]',
      lines(10, (i) => `docs/faq-${i}.md:${i + 9}:1 error MD013/line-length Line length [Expected: 120; Actual: ${150 + i}]`),
      'Summary: 51 error(s)',
    ].join('\n');
    const [step] = readToolSteps([call('l1', 'bash', { command: 'markdownlint-cli2 "**/*.md"' }), result('l1', output, true)]);
    const kept = diagnosticCandidates(step).map((f) => f.text);
    assert.equal(kept.length, 3);
    assert.ok(
      kept.some((line) => line.includes('MD034/no-bare-urls')),
      `kept: ${kept.join(' | ')}`,
    );
    assert.equal(kept.filter((line) => line.includes('MD013/line-length')).length, 1);
    assert.equal(
      diagnosticKind("src/a.ts(12,5): error TS2322: Type 'A' is not assignable to type 'B'."),
      diagnosticKind("lib/b.ts(3,1): error TS2322: Type 'C' is not assignable to type 'D'."),
    );
  });
});
