import * as assert from 'node:assert/strict';
import { errorSummary } from '../../../src/engine/ledger/errorSummary';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { call, result, user } from '../support/builders';

describe('error summary', () => {
  it('names the exception a Python traceback ends with, not its first frame', () => {
    const output = [
      '<returncode>1</returncode>',
      '<output>',
      'Traceback (most recent call last):',
      '  File "reproduce.py", line 35, in <module>',
      '    main()',
      '  File "reproduce.py", line 12, in main',
      '    raise ValueError("bad")',
      "NameError: name 'dt' is not defined",
      '</output>',
    ].join('\n');
    assert.equal(errorSummary(output), "NameError: name 'dt' is not defined");
  });

  it('finds the exception at the end of a long output whose traceback start was not read', () => {
    const frames = Array.from(
      { length: 40 },
      (_, i) => `  File "/testbed/requests/m${i}.py", line ${i + 1}, in f${i}\n    resp = self.send(prep, timeout=timeout)`,
    ).join('\n');
    const output =
      `${'ResourceWarning: unclosed socket\n'.repeat(70)}Traceback (most recent call last):\n${frames}\n` +
      `AttributeError: 'MockRequest' object has no attribute 'origin_req_host'\n\nRan 26 tests in 17.171s\n\nFAILED (errors=2)`;
    assert.equal(errorSummary(output), "AttributeError: 'MockRequest' object has no attribute 'origin_req_host'");
  });

  it("takes a linter's finding over its progress lines and box-drawing decoration", () => {
    const output = [
      'Exit code 2',
      'Checking 3 source files ...',
      '',
      '  Software Design',
      '┃ ',
      '┃ [D] ↘ Nested modules could be aliased at the top of the invoking module.',
      '┃       lib/spotter/services/registry.ex:135:5 #(Spotter.Services.Registry.check)',
    ].join('\n');
    assert.equal(errorSummary(output), '[D] ↘ Nested modules could be aliased at the top of the invoking module.');
  });

  it("names an exception by its module-qualified name as it names a bare one, over the runner's verdict after it", () => {
    const output = [
      'F',
      '=================================== FAILURES ===================================',
      '________________________________ test_archive _________________________________',
      'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "db" (172.18.0.3), port 5432 ' +
        'failed: FATAL:  database "orders" does not exist',
      '=========================== short test summary info ============================',
      'FAILED tests/test_archive.py::test_archive',
      '1 failed in 0.41s',
    ].join('\n');
    assert.ok(
      errorSummary(output).startsWith('sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server'),
      errorSummary(output),
    );
  });

  it('reads "errors" as an error word as "error", over a count of files checked', () => {
    const output = ['Checked 274 files in 91ms. No fixes applied.', 'Found 2 errors.', 'error: script "lint" exited with code 1'].join(
      '\n',
    );
    assert.equal(errorSummary(output), 'Found 2 errors.');
  });

  it('reads an error word inside a name or a path as part of the name, not as the error', () => {
    const listing = ['src/errors/', 'logs/build-error.log', "ls: cannot open directory 'docs': Permission denied"].join('\n');
    assert.equal(errorSummary(listing), "ls: cannot open directory 'docs': Permission denied");
    assert.equal(errorSummary('api/failed_jobs.py\nFAILED api/test_jobs.py::test_retry'), 'FAILED api/test_jobs.py::test_retry');
    // Standing as a word, before punctuation or at a sentence's end, it still names the error.
    assert.equal(errorSummary('Compiling 3 files\nthe upload failed.'), 'the upload failed.');
  });

  it('adds the line a heading announces, and splits output that arrived JSON-escaped', () => {
    assert.equal(
      errorSummary('Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\nRun mix format to fix.'),
      'Pre-commit validation failed: [FORMAT] Code is not formatted.',
    );
    assert.equal(
      errorSummary('The following paths are ignored by one of your .gitignore files:\npriv/static/assets\nhint: use -f'),
      'The following paths are ignored by one of your .gitignore files: priv/static/assets',
    );
  });

  it("reads a test runner's verdict at the end of a long output", () => {
    const output =
      `${'.'.repeat(80)}\n${Array.from({ length: 200 }, (_, i) => `test_case_${i} ... ok`).join('\n')}\n` +
      `FAIL: test_aware_datetime (timezones.tests.SerializationTests)\nRan 200 tests`;
    assert.equal(errorSummary(output), 'FAIL: test_aware_datetime (timezones.tests.SerializationTests)');
  });

  it('names why a test failed, at its source location, over a verdict that names only what failed', () => {
    const goTest = [
      '--- FAIL: TestParserWindow (0.00s)',
      '    parser_test.go:22: got 6 windows, want 7',
      'FAIL',
      'FAIL\tgithub.com/acme/app/internal/parser\t0.06s',
    ].join('\n');
    assert.equal(errorSummary(goTest), 'parser_test.go:22: got 6 windows, want 7');
    const goBuild = [
      '# github.com/acme/app/internal/parser',
      './window.go:3:2: undefined: span',
      'FAIL\tgithub.com/acme/app/internal/parser [build failed]',
    ].join('\n');
    assert.equal(errorSummary(goBuild), './window.go:3:2: undefined: span');
    const step = [user('Fix the parser.'), call('c1', 'shell', { command: 'go test ./internal/parser/...' }), result('c1', goTest, true)];
    assert.ok(extractFacts(step).some((f) => f.kind === 'error' && f.text === 'parser_test.go:22: got 6 windows, want 7'));
    // With no message at a location, the verdict is what there is; a stack frame that mentions a location is no message.
    const jest = [
      'FAIL src/sum.test.js',
      '  ● adds',
      '    expect(received).toBe(expected)',
      '      at Object.<anonymous> (src/sum.test.js:4:15)',
    ].join('\n');
    assert.equal(errorSummary(jest), 'FAIL src/sum.test.js');
  });

  it("names what a command refused (an unknown field, an unexpected token), not the harness's header above it", () => {
    const output =
      'Chunk ID: 3f9a1c\nWall time: 0.21 seconds\nProcess exited with code 1\nOutput:\nUnknown JSON field: "mergedAt"\nAvailable fields:\n  body';
    assert.equal(errorSummary(output), 'Unknown JSON field: "mergedAt"');
    assert.equal(
      errorSummary('Run started 12:01\nSyntaxError: Unexpected token } in config.json'),
      'SyntaxError: Unexpected token } in config.json',
    );
    assert.equal(
      errorSummary('usage: deploy [--env ENV]\ndeploy: unrecognized arguments: --force'),
      'deploy: unrecognized arguments: --force',
    );
  });

  it('takes a line that says it is an error over an earlier line that only holds an error word, and never the echo of the command', () => {
    const testRun = [
      '$ bun test --bail=0',
      '[Limiter] Task 2 failed: retrying',
      'src/jobs/queue.test.ts:',
      '# Unhandled error between tests',
      "error: Cannot find package 'yaml' from '/repo/src/config/load.ts'",
      ' 41 pass',
      ' 1 error',
    ].join('\n');
    const cases: readonly (readonly [string, string])[] = [
      [testRun, "error: Cannot find package 'yaml' from '/repo/src/config/load.ts'"],
      [
        '$ eslint --max-warnings=0 --report-unused-disable-directives-severity=error src\nsrc/a.ts:3:7 no-unused-vars',
        'src/a.ts:3:7 no-unused-vars',
      ],
      // The runner's closing status says less than the finding above it.
      ['× Unexpected empty block.\nFound 1 error.\nerror: script "lint" exited with code 1', '× Unexpected empty block.'],
      [
        '> shop@1.4.0 typecheck\nRetry budget exceeded in 3 calls\nTypeError: total is not a function',
        'TypeError: total is not a function',
      ],
    ];
    for (const [output, named] of cases) assert.equal(errorSummary(output), named, output);
  });

  it('never names an empty field of the harness record (`Error: (none)`) as the error', () => {
    const record = (output: string) =>
      ['Command: grep -n retry src/client.ts', 'Directory: (root)', `Output: ${output}`, 'Error: (none)', 'Exit Code: 1', 'Signal: 0'].join(
        '\n',
      );
    assert.doesNotMatch(errorSummary(record('(empty)')), /\(none\)|\(empty\)/);
    assert.match(
      errorSummary(record('grep: src/client.ts: No such file or directory')),
      /grep: src\/client\.ts: No such file or directory$/,
    );
    const step = [
      user('Find the retry loop.'),
      call('g1', 'shell', { command: 'grep -n retry src/client.ts' }),
      result('g1', record('(empty)')),
    ];
    assert.ok(!extractFacts(step).some((f) => /\(none\)|\(empty\)/.test(f.text)));
  });

  it("keeps a compiler's error line whole, and the fact of it never ends in the middle of a name", () => {
    const line =
      "src/views/board.ts(41,7): error TS2739: Type '{ border: Paint; fill: any; }' is missing the following properties " +
      "from type 'CellPaletteOptions': activeBorder, activeFill, hatching";
    const longLine = `${line}, ${Array.from({ length: 12 }, (_, i) => `optionalField${i}`).join(', ')}`;
    for (const errorLine of [line, longLine]) {
      const output = `\n> board@1.4.0 typecheck\n> tsc --noEmit\n\n${errorLine}\nsrc/views/board.ts(44,3): error TS18004: No value exists in scope.\n`;
      const step = [user('Fix the typecheck.'), call('c1', 'shell', { command: 'npm run typecheck' }), result('c1', output, true)];
      const fact = extractFacts(step).find((f) => f.kind === 'error' && f.text.startsWith('src/views/board.ts(41,7)'));
      assert.ok(fact, errorLine);
      if (errorLine === line) {
        assert.equal(errorSummary(output), line);
        assert.equal(fact.text, line);
      } else {
        // Cut where a fact is cut, and said to be: never a name broken off with nothing to show it.
        assert.ok(fact.text.endsWith('…'), fact.text);
        assert.ok(longLine.startsWith(fact.text.slice(0, -1)));
      }
    }
  });

  it("names a linter's or a runner's mark of what failed over its tally and the code frame under the mark", () => {
    const output = [
      'src/cart.ts:41:3 lint/style/bracedBranches ━━━━━━━━━━━━━━━━',
      '',
      '  × Wrap this branch in braces.',
      '',
      '    40 │   if (empty)',
      '  > 41 │     return total;',
      '',
      'Checked 12 files in 40ms. No fixes applied.',
      'Found 1 error.',
    ].join('\n');
    assert.equal(errorSummary(output), '× Wrap this branch in braces.');
  });

  it("names a program's last line before its failure status when no line names an error in words", () => {
    const output = ['Seeding 3 tenants', 'tenant acme: 12 rows', 'tenant globex: quota of 10 rows reached', 'exit status 1'].join('\n');
    assert.equal(errorSummary(output), 'tenant globex: quota of 10 rows reached');
    const [error] = recordToolActivity([call('c1', 'Bash', { command: 'go run ./cmd/seed' }), result('c1', output)]).errors;
    assert.equal(error?.summary, 'tenant globex: quota of 10 rows reached');
  });

  it('keeps the spacing inside the line as printed, so an aligned assertion is found as written', () => {
    const output = [
      '=================================== FAILURES ===================================',
      '___________________________ test_round_half_even ___________________________',
      '>       assert convert(2.5) == 2, "half rounds to even"',
      'E       AssertionError: half rounds to even',
      'E       assert 3 == 2',
      'E        +  where 3 = convert(2.5)',
      'tests/test_convert.py:9: AssertionError',
      '1 failed, 1 passed in 0.04s',
    ].join('\n');
    const step = [user('Fix the rounding.'), call('c1', 'shell', { command: 'pytest -q' }), result('c1', output, true)];
    assert.equal(errorSummary(output), 'E       AssertionError: half rounds to even');
    assert.ok(extractFacts(step).some((f) => f.kind === 'error' && f.text === 'E       AssertionError: half rounds to even'));
  });

  it("names a failed search's own complaint, not a hit that holds an error word, in the ledger and in the error fact", () => {
    const output = [
      "src/queue/worker.ts:48:    throw new Error('job failed after retries');",
      'src/queue/worker.ts:52:  logger.error(`dead letter: ${job.id}`);',
      'grep: src/legacy: Permission denied',
      'Exit code 2',
    ].join('\n');
    const messages = [
      user('Where do jobs fail?', 'u1'),
      call('g1', 'Bash', { command: 'grep -rn "fail\\|error" src/queue src/legacy' }),
      result('g1', output, true),
    ];
    assert.deepEqual(
      recordToolActivity(messages).errors.map((e) => e.summary),
      ['grep: src/legacy: Permission denied'],
    );
    const error = extractFacts(messages).find((f) => f.kind === 'error');
    assert.equal(error?.text.includes('grep: src/legacy: Permission denied'), true, error?.text);
    assert.match(errorSummary(output), /^src\/queue\/worker\.ts:48:/, 'read without the call, the first located line is the error');
  });

  it('reads a hit in a file of JSON records as one hit, and the tail of a hit the host cut as the hit it is', () => {
    const record = JSON.stringify({ note: 'Tag releases with a trailer.\nSee the guide.\nretry failed: upload error on mirror 2' });
    const output = [
      'Exit code 2',
      `notes/history.jsonl:41:${record}`,
      'docs/release.md:12:Add the trailer to every release tag.',
      'notes/h',
      '',
      '... [8120 characters truncated] ...',
      '',
      '  ) (uploadErrors map[string]error, err error) {',
      'docs/release.md:30:Check the trailer before the tag is pushed.',
    ].join('\n');
    const messages = [
      user('Where is the release trailer set?', 'u1'),
      call('g1', 'Bash', { command: 'grep -rn "trailer" notes/ docs/ missing/ 2>/dev/null' }),
      result('g1', output, true),
    ];
    assert.deepEqual(
      recordToolActivity(messages).errors.map((e) => e.summary),
      ['Exit code 2'],
    );
    assert.ok(!extractFacts(messages).some((f) => f.kind === 'error' && f.text.includes('upload error')));
  });

  it("names a run from a host's record by what the program printed, never by the record's echo of the command or its process fields", () => {
    const record = (output: string, error: string, code: number) =>
      [
        'Command: Get-Service Spooler -ErrorAction SilentlyContinue | Select-Object Status',
        'Directory: (root)',
        `Output: ${output}`,
        `Error: ${error}`,
        `Exit Code: ${code}`,
        'Signal: (none)',
        'Background PIDs: (none)',
        'Process Group PGID: 4812',
      ].join('\n');
    assert.equal(errorSummary(record('(empty)', '(none)', 1)), 'Exit code 1');
    assert.equal(
      errorSummary(record('(empty)', "Get-Service : Cannot find any service with service name 'Spooler'.", 1)),
      "Get-Service : Cannot find any service with service name 'Spooler'.",
    );
    assert.equal(
      errorSummary(record('Status\n------\nStopped\nerror: the service is stopped', '(none)', 3)),
      'error: the service is stopped',
    );
  });

  it("names a failed print of files by the printer's complaint or the exit status, never by a line of the files", () => {
    const printed = ['# Logs', 'npm-debug.log*', 'build-error.log*', 'export function fail() { throw new Error("boom"); }'];
    const messages = [
      user('Check what the two ignore files hold.', 'u1'),
      call('p1', 'Bash', { command: 'cat .gitignore web/.gitignore 2>/dev/null' }),
      result('p1', ['Exit code 1', ...printed].join('\n'), true),
      call('p2', 'Bash', { command: 'head -n 20 api/main.go api/missing.go' }),
      result(
        'p2',
        [
          'package main',
          'log.Fatal(err) // fatal error on start',
          "head: cannot open 'api/missing.go' for reading: Permission denied",
        ].join('\n'),
        true,
      ),
    ];
    assert.deepEqual(
      recordToolActivity(messages).errors.map((e) => e.summary),
      ['Exit code 1', "head: cannot open 'api/missing.go' for reading: Permission denied"],
    );
    const errors = extractFacts(messages)
      .filter((f) => f.kind === 'error')
      .map((f) => f.text);
    assert.ok(!errors.some((t) => printed.some((line) => t.includes(line)) || t.includes('log.Fatal')), errors.join('\n'));
  });

  it('names a failed listing by its complaint or the exit status, never by a name it listed', () => {
    const messages = [
      user('Which of the two config folders exists?', 'u1'),
      call('l1', 'Bash', { command: 'ls -d ~/.config/shop-errors ~/.config/shop 2>/dev/null' }),
      result('l1', ['/home/dev/.config/shop-errors', 'Exit code 2'].join('\n'), true),
      call('l2', 'Bash', { command: 'ls -la deploy/ missing/' }),
      result('l2', ["ls: cannot access 'missing/': Permission denied", 'deploy/:', 'total 8', 'build-error.log'].join('\n'), true),
      call('l3', 'Bash', { command: 'ls' }),
      result('l3', 'The command was refused: it could not be checked as safe to run.', true),
    ];
    assert.deepEqual(
      recordToolActivity(messages).errors.map((e) => e.summary),
      [
        'Exit code 2',
        "ls: cannot access 'missing/': Permission denied",
        'The command was refused: it could not be checked as safe to run.',
      ],
      "a host's refusal, with no exit status, is the host's word",
    );
  });

  it("names a compiler's located error over the wrapper's failure that a build script throws after it", () => {
    const output = [
      '> shop@1.4.0 build',
      '> node scripts/build.js',
      '',
      "src/cart/total.ts(41,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      '',
      'Found 1 error.',
      '',
      'Error: Command failed: npm run compile',
      '    at checkExecSyncError (node:child_process:882:11)',
      'npm error Lifecycle script `build` failed with error:',
      'Exit Code: 1',
    ].join('\n');
    assert.equal(errorSummary(output), "src/cart/total.ts(41,7): error TS2322: Type 'string' is not assignable to type 'number'.");
    assert.equal(errorSummary('Error: Command failed: make\nsrc/a.c:3:5: warning: unused variable'), 'Error: Command failed: make');
  });

  it('falls back to the first line that is not progress, then to the exit status in words, then to a plain note', () => {
    assert.equal(errorSummary('Compiling 3 files (.ex)\nsomething odd happened'), 'something odd happened');
    assert.equal(errorSummary('<returncode>1</returncode>\n<output>\nerror: exit status 1\n</output>'), 'error: exit status 1');
    // Nothing but the host's status, in whatever form the host wrote it: the status says how the call failed.
    assert.equal(errorSummary('<returncode>2</returncode>\n<output>\n</output>'), 'Exit code 2');
    assert.equal(errorSummary('Exit code: 6'), 'Exit code 6');
    // A line of figures alone (what `curl -w '%{http_code}'` prints when it never connected) names no error.
    assert.equal(errorSummary('Exit code 6\n000\n000'), 'Exit code 6');
    assert.equal(errorSummary('404 404\nscript "fetch" exited with code 3'), 'script "fetch" exited with code 3');
    assert.equal(errorSummary('<output>\n</output>'), '(no error text)');
  });

  it("reads an error object a tool wrote out as JSON as its message, whole, without the stack of the tool's own code", () => {
    const stack = String.raw`\n    at k$ (c:\\ext\\integrations\\misc\\line-counter.ts:15:9)\n    at async Promise.all (index 0)`;
    const output = [
      'The tool execution failed with the following error:',
      '<error>',
      String.raw`Error reading file docs/adr/007-drafts.md: {"name":"Error","message":"File not found: c:\dev\shop\docs\adr\007-drafts.md",` +
        String.raw`"stack":"Error: File not found: c:\dev\shop\docs\adr\007-drafts.md` +
        stack +
        '"}',
      '</error>',
    ].join('\n');
    assert.equal(
      errorSummary(output),
      String.raw`Error reading file docs/adr/007-drafts.md: File not found: c:\dev\shop\docs\adr\007-drafts.md`,
    );
    const typed =
      'request failed: {"name":"TypeError","message":"fetch failed","stack":"TypeError: fetch failed\\n    at node:internal/deps/undici"}';
    assert.equal(errorSummary(typed), 'request failed: TypeError: fetch failed');
    // An API's JSON answer that is no serialized error keeps its own form.
    assert.equal(
      errorSummary('{"message":"Not Found","documentation_url":"https://docs.example.com/rest"}'),
      '{"message":"Not Found","documentation_url":"https://docs.example.com/rest"}',
    );
  });

  it("reads the message of the error body a line opens, not the line's opening bracket", () => {
    const body = [
      '{',
      ' "error": {',
      ' "code": 429,',
      ' "message": "Upload quota exceeded for bucket media-7 in region west",',
      ' "status": "RESOURCE_EXHAUSTED"',
      ' }',
      '}]',
    ];
    // As a Python client prints a response's bytes: the line breaks written as `\n`.
    const escaped = `UploadError: request failed - b'[${body.join('\\n')}'`;
    assert.equal(
      errorSummary(`${escaped}\nExit code 1`),
      `UploadError: request failed - b'[{ "message": "Upload quota exceeded for bucket media-7 in region west"`,
    );
    const pretty =
      'Error: sync failed {\n  "error": {\n    "code": "E_CONFLICT",\n    "detail": "row 12 of orders was changed by another writer"\n  }\n}';
    assert.equal(errorSummary(pretty), 'Error: sync failed { "detail": "row 12 of orders was changed by another writer"');
    assert.equal(
      errorSummary('Error: sync failed {\n  "code": "E_CONFLICT"\n}'),
      'Error: sync failed {',
      'a body of codes alone adds nothing',
    );
  });
});
