import * as assert from 'node:assert/strict';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { ownWordCandidates, WHOLE_LINE_CHARS } from '../../../src/engine/recall/ownWords';
import { isDiagnosticLine } from '../../../src/engine/ledger/diagnosticForms';
import { diagnosticCandidates } from '../../../src/engine/recall/diagnosticLines';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { proseLines } from '../../../src/engine/text/prose';
import { assistant, call, result, user } from '../support/builders';

describe("the agent's own words", () => {
  const sites = (n: number, endsTurn: (i: number) => boolean = () => false) =>
    Array.from({ length: n }, (_, i) => ({ messageId: `m${i}`, seq: i, endsTurn: endsTurn(i) }));

  it('takes every sentence of the assistant as a candidate, verbatim, whatever its wording or language', () => {
    const span = [
      user('Build the profile card.'),
      assistant(
        "J'ajoute un petit utilitaire qui calcule les initiales à partir de `user.displayName`, sans accents ni espaces. " +
          "Ensuite le composant ProfileCard l'affiche dans un cercle coloré selon l'identifiant de l'utilisateur.",
      ),
    ];
    const keys = ownWordCandidates(span, sites(2), 40).map((c) => c.text);
    assert.deepEqual(keys, [
      "J'ajoute un petit utilitaire qui calcule les initiales à partir de `user.displayName`, sans accents ni espaces.",
      "Ensuite le composant ProfileCard l'affiche dans un cercle coloré selon l'identifiant de l'utilisateur.",
    ]);
  });

  it('takes a short line whole, as its writer gave it, and a long one sentence by sentence', () => {
    const short = 'The build succeeds on every target now. Next comes the deploy script and its smoke test.';
    const long =
      'The deploy script reads `DEPLOY_TARGET` from the environment and falls back to staging when it is unset. ' +
      'The smoke test then calls `/healthz` on that target and waits up to thirty seconds.';
    assert.ok(long.length > WHOLE_LINE_CHARS && short.length <= WHOLE_LINE_CHARS);
    const latest = 'The staging deploy is green again. Next I will look at the release notes.';
    const keys = ownWordCandidates([assistant(`${short}\n${long}`), assistant(latest)], sites(2), 40).map((c) => c.text);
    assert.deepEqual(
      keys.sort(),
      [
        short,
        'The deploy script reads `DEPLOY_TARGET` from the environment and falls back to staging when it is unset.',
        'The smoke test then calls `/healthz` on that target and waits up to thirty seconds.',
        // The latest message says where the work stands and what comes next: a summary's phase and next step read it
        // sentence by sentence, and so do its facts.
        'The staging deploy is green again.',
        'Next I will look at the release notes.',
      ].sort(),
    );
    const forEarlierLines = ownWordCandidates([assistant(latest)], sites(1), 40, true).map((c) => c.text);
    assert.deepEqual(forEarlierLines, [latest], 'the earlier lines show every short line as written');
  });

  it('keeps a sentence too short to stand alone with the one before it when it ends its line, so nothing the agent wrote is dropped', () => {
    const span = [user('Tidy the release notes.'), assistant('The changelog lists version 2.4 twice. Fix that:\nNext I check the dates.')];
    const keys = ownWordCandidates(span, sites(2), 40).map((c) => c.text);
    assert.ok(keys.includes('The changelog lists version 2.4 twice. Fix that:'), keys.join(' | '));
  });

  it('ranks what the agent read in the results it just saw above a sentence naming as much that they do not hold', () => {
    const span = [
      call('g1', 'bash', { command: 'grep -n "def parse_row" -r src' }),
      result('g1', 'src/rows/reader.py:212:def parse_row(line, sep=";"):'),
      assistant('I could also try `load_table` with `strict_mode` later.\nFound it: `parse_row` takes the separator as `sep`.'),
    ];
    const byText = new Map(ownWordCandidates(span, sites(3), 40).map((c) => [c.text, c.score]));
    const read = byText.get('Found it: `parse_row` takes the separator as `sep`.') ?? 0;
    const guessed = byText.get('I could also try `load_table` with `strict_mode` later.') ?? 0;
    assert.ok(read > guessed, `the reading of the result outranks the guess (${read} vs ${guessed})`);
  });

  it("ranks a message's lead sentence, where the agent says what it found, above a later one that carries as much", () => {
    const span = [
      assistant('Yes, the queue drains through `flushPending` in worker.go.\nThen the pool keeps `idleTimeout` in settings.go.'),
    ];
    const byText = new Map(ownWordCandidates(span, sites(1), 40).map((c) => [c.text, c.score]));
    const lead = byText.get('Yes, the queue drains through `flushPending` in worker.go.') ?? 0;
    const later = byText.get('Then the pool keeps `idleTimeout` in settings.go.') ?? 0;
    assert.ok(lead - later >= 0.15, `the lead outranks a sentence naming as much by a clear margin (${lead} vs ${later})`);
  });

  it('gives a lead that names nothing no lead bonus: an announcement of the next look does not outrank what follows it', () => {
    const span = [
      assistant('Let me look at that part of the scheduler again.\nThe limit is set where it reads `maxAttempts` from settings.go.'),
    ];
    const byText = new Map(ownWordCandidates(span, sites(1), 40).map((c) => [c.text, c.score]));
    const announcement = byText.get('Let me look at that part of the scheduler again.') ?? 0;
    const finding = byText.get('The limit is set where it reads `maxAttempts` from settings.go.') ?? 0;
    assert.ok(announcement > 0 && finding > 0, [...byText.keys()].join(' | '));
    // Per token the short announcement would still outrank the finding's line among the earlier lines if it kept the bonus.
    assert.ok(announcement < 0.3, `the announcement scores as any sentence naming nothing (${announcement})`);
    assert.ok(finding - announcement >= 0.15, `the finding outranks it by a clear margin (${finding} vs ${announcement})`);
  });

  it('scores a sentence by the rare names it carries, not by cue words', () => {
    const span = [
      assistant(
        'Keep the walkthrough under ten minutes for the demo audience. ' +
          'The sidebar renders inside `LayoutShell` via renderSidebarSlot in src/layout/shell.tsx. ' +
          'Things look fine so far and nothing else seems odd.',
      ),
    ];
    const byText = new Map(ownWordCandidates(span, sites(1), 40).map((c) => [c.text, c.score]));
    const named = byText.get('The sidebar renders inside `LayoutShell` via renderSidebarSlot in src/layout/shell.tsx.') ?? 0;
    const plain = byText.get('Things look fine so far and nothing else seems odd.') ?? 0;
    assert.ok(byText.has('Keep the walkthrough under ten minutes for the demo audience.'), 'a plain instruction is still a candidate');
    assert.ok(named > plain, `a sentence naming code outranks one naming nothing (${named} vs ${plain})`);
  });

  it('ranks a term said once above the same kind of term said in every sentence', () => {
    const span = [
      assistant(
        'Checked `config.yaml` first.\nThen `config.yaml` again with the flag.\nFinally `config.yaml` and `retry_budget.py` together.',
      ),
    ];
    const byText = new Map(ownWordCandidates(span, sites(1), 40).map((c) => [c.text, c.score]));
    const rare = byText.get('Finally `config.yaml` and `retry_budget.py` together.') ?? 0;
    const common = byText.get('Then `config.yaml` again with the flag.') ?? 0;
    assert.ok(rare > common, `the sentence with a rare name scores higher (${rare} vs ${common})`);
  });

  it('calls a sentence of the answer that ends a turn an outcome, and one before more work a decision', () => {
    const span = [
      assistant('Next the parser gets a streaming mode for large inputs.'),
      assistant('The parser now streams inputs of any size.'),
    ];
    const kinds = ownWordCandidates(
      span,
      sites(2, (i) => i === 1),
      40,
    ).map((c) => c.kind);
    assert.deepEqual(kinds, ['decision', 'outcome']);
  });

  it('reads what a short line states before the sentence that leads into the next call: a finding, not a decision', () => {
    const line = "Good, `preview-server` is installed at /usr/local/bin. Let's start it on port 8080:";
    const span = [assistant(line), assistant('The preview answers on port 8080 with the new layout.')];
    const fact = ownWordCandidates(
      span,
      [
        {
          messageId: 'm0',
          seq: 0,
          endsTurn: false,
          actedOn: { text: 'preview-server --port 8080', changes: true },
          seen: '/usr/local/bin/preview-server\n',
        },
        { messageId: 'm1', seq: 1, endsTurn: true },
      ],
      40,
    ).find((f) => f.text === line);
    assert.ok(fact, 'the short line is one candidate');
    assert.equal(fact.kind, 'outcome');
  });

  it('takes more sentences of one long message when the caller keeps more facts', () => {
    const long = assistant(Array.from({ length: 30 }, (_, i) => `Step ${i} moves module_${i} into packages/core_${i}.`).join(' '));
    assert.equal(ownWordCandidates([long], sites(1), 40).length, 12);
    assert.equal(ownWordCandidates([long], sites(1), 1000).length, 30);
  });

  it("takes the capitalized label an agent's harness opens its answer with off its sentences, and nothing of a user's message", () => {
    const texts = ownWordCandidates(
      [assistant('THOUGHT: The cache expires entries after 60 seconds in `src/cache.ts`.\n\n```bash\ncat src/cache.ts\n```')],
      sites(1),
      40,
    ).map((c) => c.text);
    assert.deepEqual(texts, ['The cache expires entries after 60 seconds in `src/cache.ts`.']);
    assert.deepEqual(proseLines(user('IMPORTANT: keep the public API')), ['IMPORTANT: keep the public API']);
  });

  it('keeps a sentence too short to stand alone with the one after it', () => {
    const texts = ownWordCandidates([assistant('Done. Tests pass. The export now writes every shard in order.')], sites(1), 40).map(
      (c) => c.text,
    );
    assert.deepEqual(texts, ['Done. Tests pass. The export now writes every shard in order.']);
  });

  it('leaves out fragments too short to say anything', () => {
    assert.deepEqual(ownWordCandidates([assistant('Okay. Done now.')], sites(1), 40), []);
  });

  it('makes a plain-prose plan of the assistant a fact of the span', () => {
    const facts = extractFacts([
      user('Add initials to the avatar.'),
      assistant("I'll add a small helper that derives the initials from the user's name, in src/avatar/initials.ts."),
    ]);
    assert.ok(facts.some((f) => f.text.includes('derives the initials from the user')));
  });

  it('keeps the emphasis of a line that opens with bold text, as the agent wrote it', () => {
    const line = '**1. Missing Rows** - The import dropped **212 rows**:';
    const facts = extractFacts([
      user('Why are rows missing after the nightly import?'),
      assistant(`${line}\n- rows whose tenant is null\n\nI will add a default tenant.`),
    ]);
    const titled = facts.find((f) => f.key === '1. Missing Rows');
    assert.equal(titled?.text, line, facts.map((f) => `${f.key} | ${f.text}`).join('\n'));
    assert.ok(!facts.some((f) => f.key.length < 6), 'no fact of a list number alone');
  });
});

describe('diagnostic lines of tool results', () => {
  it('recognises diagnostics in the formats of many tools', () => {
    for (const line of [
      "fatal: bad revision 'origin/dev'",
      "ImportError: cannot import name 'Widget' from 'app.ui'",
      'error[E0308]: mismatched types',
      'src/main.c:12:5: error: expected ‘;’ before ‘}’ token',
      'npm ERR! code ERESOLVE',
      'bash: pnpm: command not found',
      'java.lang.NullPointerException: name is null',
      "ModuleNotFoundError: No module named 'yaml'",
      'ERROR tests/test_io.py::test_read[utf8] - BytesWarning: str() on a bytes instance',
      '--- FAIL: TestParseHeader (0.00s)',
      'cat: notes.txt: No such file or directory',
      'solve raised: NotImplementedError: the inequality cannot be solved',
      '=============== 2 errors in 0.29s ===============',
      'Tests: 3 failed, 10 passed, 13 total',
      'Function main not found! Showing the nearest symbol instead',
      'request to the registry timed out after 30 seconds',
    ]) {
      assert.ok(isDiagnosticLine(line), line);
    }
  });

  it('reads diagnostics in the forms other tools, runtimes and languages print them', () => {
    for (const line of [
      './cmd/serve.go:14:9: undefined: listenAddr',
      'E       AssertionError: assert 41 == 42',
      'make: *** [Makefile:12: build] Error 2',
      'Error response from daemon: No such container: api',
      "thread 'main' panicked at src/lib.rs:9:5",
      'npm error code E404',
      'CMake Error at CMakeLists.txt:7 (find_package):',
      'BUILD FAILED in 4s',
      'tests/test_cache.py::test_expiry FAILED                     [ 50%]',
      "TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      'Process exited with code 137',
      'Command failed: yarn build',
      'Uncaught ReferenceError: chart is not defined',
      'Exception in thread "main" java.util.ConcurrentModificationException',
      "Error: ENOENT: no such file or directory, open 'cfg.json'",
      'code: ERR_MODULE_NOT_FOUND',
      "[Errno 13] Permission denied: '/var/run/app.pid'",
      'HTTP/1.1 503 Service Unavailable',
      '● Test suite failed to run',
      'Erreur : le fichier de configuration est introuvable',
      'Fehler: Verbindung fehlgeschlagen',
      'unknown flag: --verbose-ish',
      'invalid value for --jobs: many',
      'src/cache.py:88: DeprecationWarning: utcnow() is deprecated',
      'npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported',
      'build finished with problems, 2 warnings.',
      'Syntax error: "(" unexpected',
      'Compilation failed',
      "Authentication failed for 'https://git.example.com/app.git/'",
      '✕ renders the empty list (12 ms)',
      '× Unexpected any. Specify a different type.',
      'not ok 3 - parses ISO dates',
      'Killed',
      '{"error": {"code": 401, "message": "token expired"}}',
      '/usr/bin/python3: No module named pytest',
      'Error: listen EADDRINUSE: address already in use :::3000',
      'RangeError: Maximum call stack size exceeded',
      'CONFLICT (content): Merge conflict in src/app.ts',
      "src/plan.ts(12,5): error TS2339: Property 'cost' is missing.",
      'Program.cs(40,17): error CS1002: ; expected',
      '(fail) parser > reads dates [0.42ms]',
      "src/plan.ts:12:5 - error TS2339: Property 'cost' is missing.",
      "12:5  error  'plan' is assigned a value but never used  no-unused-vars",
      'No files found matching pattern "**/*.toml" within /srv/app',
      'no test files found',
      'No matches found',
      'No results matched your query',
      "NoMethodError (undefined method `name' for nil:NilClass)",
      '** (CompileError) lib/cart.ex:3: undefined function total/1',
      'e: src/Main.kt: (12, 5): Unresolved reference: parseRow',
      '│ Error: Invalid reference',
      "mkdir: cannot create directory '/opt/app': Operation not permitted",
      'OSError: [Errno 30] Read-only file system',
      'read tcp 10.0.0.2:5432: connection reset by peer',
      'The system cannot find the path specified.',
      ' ! [rejected]        main -> main (fetch first)',
      'hint: Updates were rejected because the remote contains work that you do not have locally.',
      'expected 200, got 500',
      'Expected "ok" but found "error"',
    ]) {
      assert.ok(isDiagnosticLine(line), line);
    }
  });

  it('does not read code, comments or a file shown with its line numbers as diagnostics', () => {
    for (const line of [
      'return fmt.Errorf("failed to open store: %w", err)',
      "throw new Error('could not connect');",
      '* @throws {Error} when the file does not exist',
      '61→\t\tt.Fatalf("failed to init repo: %v", err)',
      'The error handler retries three times.',
      '-rw-r--r-- 1 dev dev 120 errors.log',
      'No errors found.',
      'LOG_LEVEL=ERROR',
    ]) {
      assert.equal(isDiagnosticLine(line), false, line);
    }
  });

  it('leaves ordinary output alone', () => {
    for (const line of [
      'Compiled 12 files in 3.1s',
      'All checks passed',
      'total 48',
      'def handle_error(self, exc):',
      'failed: 0, passed: 12',
      'Error: 0 errors',
      '========== 12 passed in 0.41s ==========',
      'note: the retry handler raised the limit to 5',
      '- Exception: the docs folder is built separately',
      '{"status": "ok", "error": null, "errors": []}',
      'Tests: 12 passed, 12 total',
      '× 3 = 12',
      'src/plan.ts(12,5): the cost is read here',
      '(pass) parser > reads dates [0.42ms]',
      'No issues found.',
      'No vulnerabilities found',
      'No warnings found in 12 files',
      'Nothing found to clean',
      'It behaves as expected now.',
      '| `/review` | captures the concerns raised, alternatives rejected and risks accepted |',
      '| name | size |',
      'class ParseError(ValueError):',
    ]) {
      assert.equal(isDiagnosticLine(line), false, line);
    }
  });

  it('keeps the error lines of a call the agent worked around, with the command it came from', () => {
    const messages = [
      call('c1', 'bash', { command: 'git log origin/dev..HEAD' }),
      result('c1', "warning: refname is ambiguous\nfatal: bad revision 'origin/dev'\n", true),
      call('c2', 'bash', { command: 'git log main..HEAD' }),
      result('c2', 'commit 1a2b3c4d\n'),
    ];
    const [failed] = readToolSteps(messages);
    const found = diagnosticCandidates(failed);
    assert.deepEqual(
      found.map((f) => [f.kind, f.text, f.subject]),
      [['error', "fatal: bad revision 'origin/dev'", 'git log origin/dev..HEAD']],
    );
    const facts = extractFacts(messages);
    assert.ok(facts.some((f) => f.kind === 'error' && f.key.includes('bad revision')));
  });

  it("reads a log line's error without its time stamp, so the same error logged twice is one fact and its key starts with its words", () => {
    const log = [
      '2031/07/14 08:02:11 listening on :7070',
      '2031/07/14 08:02:12 Warning: cache warmup failed: dial tcp 10.0.0.9:6379: connect: connection refused',
      '[2031-07-14 08:02:40,512] ERROR worker: queue "invoices" is not declared',
      '2031-07-14T08:03:05.118Z Warning: cache warmup failed: dial tcp 10.0.0.9:6379: connect: connection refused',
    ];
    const [step] = readToolSteps([call('w1', 'bash', { command: './server --port 7070' }), result('w1', log.join('\n'))]);
    const found = diagnosticCandidates(step);
    assert.deepEqual(
      found.map((f) => f.text),
      [
        'Warning: cache warmup failed: dial tcp 10.0.0.9:6379: connect: connection refused',
        'ERROR worker: queue "invoices" is not declared',
      ],
    );
    assert.ok(
      found.every((f) => log.some((line) => line.includes(f.key))),
      'each key is as the log wrote it',
    );
  });

  it('keeps a warning when nothing in the result failed, and leaves it out beside an error', () => {
    const warned = [
      call('w1', 'bash', { command: 'python build_index.py' }),
      result('w1', 'indexing 120 rows\nbuild_index.py:14: DeprecationWarning: utcnow() is deprecated\ndone'),
    ];
    assert.deepEqual(
      diagnosticCandidates(readToolSteps(warned)[0]).map((f) => f.text),
      ['build_index.py:14: DeprecationWarning: utcnow() is deprecated'],
    );
    const failed = [
      call('w2', 'bash', { command: 'python build_index.py' }),
      result('w2', "build_index.py:14: DeprecationWarning: utcnow() is deprecated\nKeyError: 'row_id'", true),
    ];
    assert.deepEqual(
      diagnosticCandidates(readToolSteps(failed)[0]).map((f) => f.text),
      ["KeyError: 'row_id'"],
    );
  });

  it("keeps a failed test's error over the errors passing tests log, in the forms runners print them", () => {
    const logged = (n: number) => Array.from({ length: n }, (_, i) => `error: retry ${i} of the upload failed (expected by the test)`);
    const runs = [
      {
        command: 'npx jest',
        cause: 'TypeError: Cannot read properties of undefined (reading ´rows´)',
        output: (cause: string) => [
          'PASS src/upload.test.ts',
          ...logged(4),
          'FAIL src/report.test.ts',
          '  ● report › renders the totals',
          '',
          `    ${cause}`,
          '      at render (src/report.ts:40:12)',
          'Tests: 1 failed, 23 passed, 24 total',
        ],
      },
      {
        command: 'go test ./...',
        cause: 'Error Trace:\treport_test.go:31',
        output: (cause: string) => [
          ...logged(5),
          'ok   example.com/upload 0.20s',
          '--- FAIL: TestTotals (0.00s)',
          '    report_test.go:31:',
          `        \t${cause}`,
          '        \tError:      \tNot equal:',
          '        \t            \texpected: 14',
          'FAIL',
          'FAIL example.com/report 0.02s',
        ],
      },
      {
        command: 'bun test',
        cause: "SyntaxError: Unexpected token '}' in report.ts",
        output: (cause: string) => [
          ...logged(6),
          cause,
          '      at report.ts:12:3',
          '(fail) report > renders the totals [1.20ms]',
          ' 1 fail',
          ' 30 pass',
        ],
      },
    ];
    for (const run of runs) {
      const messages = [call('r1', 'bash', { command: run.command }), result('r1', run.output(run.cause).join('\n'), true)];
      const found = diagnosticCandidates(readToolSteps(messages)[0]).map((f) => f.text);
      assert.ok(
        found.some((t) => t.includes(run.cause)),
        `${run.command}: ${found.join(' | ')}`,
      );
    }
  });

  it("takes the plainest diagnostic near a failed test's mark as its cause, not a nearer log line that says failure", () => {
    const cause = "TypeError: undefined is not an object (evaluating 'def.valueType')";
    const output = [
      'src/types/events.test.ts:',
      cause,
      '      at parse (src/types/events.ts:40:12)',
      '',
      '(fail) Events > RawEvent > accepts a valid event [1.99ms]',
      '[Breaker] Service1 failure (1/1)',
      '(fail) Events > RawEvent > rejects an invalid event [0.28ms]',
      '[Breaker] Service2 failure (1/1)',
      ' 2 fail',
      ' 30 pass',
      'error: script "test" exited with code 1',
    ];
    const messages = [call('b1', 'bash', { command: 'bun run test' }), result('b1', output.join('\n'), true)];
    const found = diagnosticCandidates(readToolSteps(messages)[0]).map((f) => f.text);
    assert.ok(found.includes(cause), found.join(' | '));
    assert.ok(!found.some((t) => t.startsWith('[Breaker]')), found.join(' | '));
  });

  it("keeps a long output's first errors and its closing verdict, not only the lines at its start", () => {
    const errors = Array.from({ length: 8 }, (_, i) => `ERROR tests/test_io.py::test_read[case${i}] - OSError: disk`);
    const messages = [
      call('t1', 'bash', { command: 'pytest tests/test_io.py' }),
      result('t1', ['collected 8 items', ...errors, '========== 8 errors in 1.52s =========='].join('\n'), true),
    ];
    const found = diagnosticCandidates(readToolSteps(messages)[0]).map((f) => f.text);
    assert.equal(found.length, 3);
    assert.equal(found[0], errors[0]);
    assert.match(found[found.length - 1], /8 errors in 1\.52s/);
  });

  it("keeps a verbose test run's exception, printed after many progress lines, over the progress lines that only say FAILED", () => {
    const progress = Array.from(
      { length: 150 },
      (_, i) => `tests/test_rows.py::test_row_${i} ${i % 50 === 7 ? 'FAILED' : 'PASSED'} [${i}%]`,
    );
    const failures = [
      '=================== FAILURES ===================',
      '    def test_row_7():',
      '>       assert parse_row("7;x") == 7',
      "E       ValueError: invalid row separator ';'",
    ];
    const messages = [
      call('p1', 'bash', { command: 'pytest -v tests/test_rows.py' }),
      result('p1', [...progress, ...failures, '========== 3 failed, 147 passed in 2.10s =========='].join('\n'), true),
    ];
    const found = diagnosticCandidates(readToolSteps(messages)[0]).map((f) => f.text);
    assert.ok(
      found.some((t) => t.includes("ValueError: invalid row separator ';'")),
      found.join('\n'),
    );
    assert.match(found[found.length - 1], /3 failed, 147 passed/);
  });

  it("calls the assistant's own words about a failure an outcome: errors are what the tools printed", () => {
    const messages = [
      call('b1', 'bash', { command: 'npm run build' }),
      result(
        'b1',
        "src/api/client.ts:41:7: error TS2353: Object literal may only specify known properties, and 'retryPolicy' does not exist",
        true,
      ),
      assistant('The build fails because the generated client in src/api/client.ts is missing the `retryPolicy` option.'),
      call('b2', 'bash', { command: 'npm run generate' }),
      result('b2', 'generated 4 clients'),
    ];
    const facts = extractFacts(messages);
    const stated = facts.find((f) => f.text.startsWith('The build fails because'));
    assert.equal(stated?.kind, 'outcome');
    assert.ok(facts.some((f) => f.kind === 'error' && f.text.includes('error TS2353')));
  });

  it("reads a file tool's own complaint as a diagnostic, though the harness did not flag the call as failed", () => {
    const messages = [
      call('e1', 'str_replace_editor', { command: 'str_replace', path: '/repo/src/cache.py', old_str: 'ttl = 30', new_str: 'ttl = 60' }),
      result('e1', 'Error: the file /repo/src/cache.py could not be edited: it changed on disk since it was read.'),
      call('r2', 'read_file', { path: '/repo/src/missing.py' }),
      result('r2', "ENOENT: no such file or directory, open '/repo/src/missing.py'"),
    ];
    const [edit, read] = readToolSteps(messages);
    assert.equal(edit.activity.kind, 'file');
    assert.equal(edit.ok, true);
    assert.deepEqual(
      diagnosticCandidates(edit).map((f) => f.text),
      ['Error: the file /repo/src/cache.py could not be edited: it changed on disk since it was read.'],
    );
    assert.deepEqual(
      diagnosticCandidates(read).map((f) => f.text),
      ["ENOENT: no such file or directory, open '/repo/src/missing.py'"],
    );
  });

  it('names what another tool was called with beside its diagnostic, so a search that found nothing says what was looked for', () => {
    const messages = [
      call('g1', 'Glob', { pattern: 'config/**/*.toml' }),
      result('g1', 'No files found'),
      call('w1', 'web_fetch', { prompt: 'Summarize the page\nin three lines', url: 'https://example.com/changelog' }),
      result('w1', 'Request failed with status code 404'),
    ];
    const [glob, fetch] = readToolSteps(messages);
    assert.equal(glob.activity.kind, 'other');
    assert.deepEqual(
      diagnosticCandidates(glob).map((f) => [f.text, f.subject]),
      [['No files found', 'Glob config/**/*.toml']],
    );
    assert.equal(
      fetch.subject,
      'web_fetch https://example.com/changelog',
      'a string of several lines is content, not what it was asked for',
    );
  });

  it('reads no diagnostics from the content of a file that was read', () => {
    const messages = [
      call('r1', 'Read', { file_path: 'src/errors.py' }),
      result('r1', 'class ParseError(Exception):\n    pass\nValueError: x\n', false, 'Read'),
    ];
    assert.deepEqual(diagnosticCandidates(readToolSteps(messages)[0]), []);
  });
});
