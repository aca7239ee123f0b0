import * as assert from 'node:assert/strict';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { MARKER_SCORE, type Fact, type FactKind } from '../../../src/engine/model/fact';
import { MAX_KEY_CHARS } from '../../../src/engine/facts/factKey';
import { KIND_SHARES } from '../../../src/engine/recall/selectFacts';
import {
  injectedTextBlock,
  message,
  messageText,
  printedTextBlock,
  textBlock,
  toolCallBlock,
  type Message,
} from '../../../src/engine/types';
import { outputLineFacts } from '../../../src/engine/recall/outputLines';
import { RESULT_SCORES } from '../../../src/engine/recall/resultFacts';
import { assistant, call, result, user } from '../support/builders';
import { chatOnlySession, devopsSession, germanSession, longSession, notebookSession, silentAgentSession } from './recallSessions';

const ofKind = (facts: readonly Fact[], kind: FactKind) => facts.filter((f) => f.kind === kind);
const withKey = (facts: readonly Fact[], text: string) => facts.find((f) => f.key.includes(text));
const exactly = (facts: readonly Fact[], key: string) => facts.find((f) => f.key === key);
const errorWith = (facts: readonly Fact[], text: string) => facts.find((f) => f.kind === 'error' && f.key.includes(text));
const keysOf = (facts: readonly Fact[]) => facts.map((f) => f.key);

/** Every fact's key must be verbatim in its source message (white space collapsed). */
function assertKeysVerbatim(facts: readonly Fact[], messages: readonly Message[]): void {
  const byId = new Map(messages.map((m) => [m.id, m]));
  for (const fact of facts) {
    const source = byId.get(fact.messageId);
    assert.ok(source, `${fact.key}: source ${fact.messageId} exists`);
    const text = source.blocks
      .map((b) => (b.type === 'text' ? b.text : b.type === 'toolResult' ? b.content : JSON.stringify(b.input)))
      .join('\n')
      .replace(/\s+/g, ' ');
    const inputs = messages
      .flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? Object.values(b.input).map(String) : [])))
      .join(' ');
    assert.ok(text.includes(fact.key) || inputs.includes(fact.key), `key "${fact.key}" is verbatim in ${fact.messageId}`);
    assert.ok(fact.key.length <= MAX_KEY_CHARS, `key "${fact.key}" is short`);
  }
}

describe('fact extraction', () => {
  describe('requests', () => {
    it('takes the first sentence of each user message and a later sentence that corrects or asks', () => {
      const facts = extractFacts(chatOnlySession());
      const requests = keysOf(ofKind(facts, 'request'));
      assert.ok(requests.includes('Should our mobile app cache the feed in SQLite or in a key-value store?'));
      assert.ok(requests.includes('No, we already ship MMKV; keep it and store pages as JSON blobs.'));
    });

    it('reads a request in any language: its first sentence, verbatim', () => {
      const messages = germanSession();
      const facts = extractFacts(messages);
      assert.equal(withKey(facts, 'Bitte ändere')?.kind, 'request');
      assert.equal(withKey(facts, 'Bitte ändere')?.key, 'Bitte ändere die Zeitzone in config/app.yaml auf Europe/Berlin.');
      assertKeysVerbatim(facts, messages);
    });

    it("takes no request from what a host put in the user's turn, and the user's first words stay the first request", () => {
      const reminder = (id: string): Message =>
        message(id, 'user', [
          injectedTextBlock(
            '<host_notice>\nIMPORTANT: The plugins below load on demand. Whenever a step needs one, you MUST FIRST look it up by name.\n</host_notice>',
          ),
        ]);
      const attached: Message = message('u3', 'user', [
        injectedTextBlock('<attachment name="ROTA.md">\nPlease rotate the on-call list every Monday.\n</attachment>'),
        textBlock('Add the weekend shifts to the rota as well.'),
      ]);
      const facts = extractFacts([
        reminder('u0'),
        user('Move the pager alerts to the new channel.'),
        assistant('Moving them now.'),
        reminder('u2'),
        attached,
      ]);
      const requests = ofKind(facts, 'request');
      assert.deepEqual(
        requests.map((f) => f.key),
        ['Move the pager alerts to the new channel.', 'Add the weekend shifts to the rota as well.'],
      );
      assert.ok(requests[0].score > requests[1].score, 'the first words the user wrote are the first request');
    });

    it("keeps the errors a host put in the user's turn as errors, never what its instructions say of errors", () => {
      const turn: Message = message('u1', 'user', [
        injectedTextBlock(
          [
            '<context>',
            'Terminal: zsh',
            'Last Command: npm run migrate',
            'Error: relation "coupons" does not exist (migration 0042_coupon_codes)',
            '</context>',
            '<reminderInstructions>',
            'When a command fails, read the error before you run it again.',
            '</reminderInstructions>',
          ].join('\n'),
        ),
        textBlock('Why does the migration stop?'),
      ]);
      const errors = ofKind(extractFacts([turn, assistant('The coupons table is created by a later migration.')]), 'error');
      assert.deepEqual(
        errors.map((f) => f.text),
        ['Error: relation "coupons" does not exist (migration 0042_coupon_codes)'],
      );
    });

    it('keeps what a host refused on when it sent the finished agent back to work, as an error', () => {
      const hostSaid = [
        'Finish check said:',
        '[./hooks/finish-check.sh]: # Checking the work tree...',
        '',
        '# Work tree not clean',
        '',
        'Cannot stop while src/slug.ts has uncommitted changes.',
        '',
        'Before you stop:',
        '1. Review the diff',
        '2. Commit it',
      ].join('\n');
      const finished = assistant('Added `slugify` and its test; all done.');
      const errorsOf = (turn: Message) =>
        ofKind(extractFacts([user('Add a slugify helper.'), finished, turn, assistant('Committing the change first.')]), 'error').map(
          (f) => f.text,
        );
      assert.deepEqual(errorsOf(message('u2', 'user', [injectedTextBlock(hostSaid)])), [
        'Cannot stop while src/slug.ts has uncommitted changes.',
      ]);
      // The same words beside the user's own are a host's instructions in the user's turn, which speak of errors too.
      assert.deepEqual(errorsOf(message('u2', 'user', [injectedTextBlock(hostSaid), textBlock('Keep going.')])), []);
    });

    it('keeps two errors a host printed under one wrapper as two, each by the message of the body it opens', () => {
      const limit = (kind: string) =>
        message(`u-${kind}`, 'user', [
          injectedTextBlock(
            `billing.ApiError: billing.ApiError: LedgerCloudException - b'[{\\n  "error": {\\n    "status": 402,\\n` +
              `    "message": "Monthly spend cap hit on ${kind} tokens for project ledger-dev, region: eu-north. Raise the cap in the console at https://console.example.com/billing/ledger-dev/caps first, then send the request again."\\n  }\\n}]'`,
          ),
        ]);
      const errors = ofKind(extractFacts([limit('input'), assistant('Waiting.'), limit('output'), assistant('Waiting again.')]), 'error');
      assert.deepEqual(
        errors.map((f) => /Monthly spend cap hit on (\w+) tokens/.exec(f.text)?.[1]),
        ['input', 'output'],
      );
    });

    it('scores the first request of the span above later ones', () => {
      const facts = extractFacts(chatOnlySession());
      const [first, later] = ofKind(facts, 'request');
      assert.ok(first.score > later.score, `${first.score} > ${later.score}`);
    });
  });

  describe('what a host printed of what it ran itself', () => {
    const session = () => [
      user('Fix the refund rounding.'),
      message('p1', 'user', [printedTextBlock('Applied edit to billing/refund.py\nCommit 5e1c0d7 fix: refunds round half to even')]),
      user('now the coupons'),
      message('p2', 'user', [
        printedTextBlock('litellm.RateLimitError: quota for model tessera-large exceeded\nRetrying in 60.0 seconds...'),
      ]),
      assistant('The coupon code applies the discount before tax; it should apply after.'),
    ];

    it("is read like a tool's output, its error an error, and never as the user's request", () => {
      const facts = extractFacts(session());
      assert.deepEqual(keysOf(ofKind(facts, 'request')), ['Fix the refund rounding.', 'now the coupons']);
      assert.ok(keysOf(ofKind(facts, 'error')).some((k) => k.startsWith('litellm.RateLimitError: quota for model tessera-large')));
      assert.ok(keysOf(ofKind(facts, 'outcome')).includes('Applied edit to billing/refund.py'));
    });

    it("takes the commit it reports as a commit, in Aider's form as in git's", () => {
      const commits = extractFacts(session()).filter((f) => f.key === 'Commit 5e1c0d7 fix: refunds round half to even');
      assert.deepEqual(
        commits.map((f) => [f.kind, f.score]),
        [['outcome', RESULT_SCORES.commit]],
      );
    });

    it('gives the lines it closed with to the earlier lines, and not a line every printout ends with', () => {
      const tallied = session().map((m) =>
        m.blocks.some((b) => b.type === 'text' && b.printed === true)
          ? message(m.id, 'user', [printedTextBlock(`${messageText(m)}\nTokens: ${m.id === 'p1' ? '3.1' : '4.7'}k sent, 212 received.`)])
          : m,
      );
      const lines = outputLineFacts(tallied).map((f) => f.text);
      assert.ok(lines.includes('Commit 5e1c0d7 fix: refunds round half to even'));
      assert.ok(!lines.some((l) => l.startsWith('Tokens:')), lines.join('\n'));
    });

    it('reads an output the host framed on one line by what the frame holds, not as a field of the harness', () => {
      const framed = [
        user('/model'),
        message('p1', 'user', [printedTextBlock('<local-command-stdout>Set model to orca-7b (high)</local-command-stdout>')]),
        user('Now profile the importer.'),
      ];
      assert.ok(keysOf(ofKind(extractFacts(framed), 'outcome')).includes('Set model to orca-7b (high)'));
      assert.ok(outputLineFacts(framed).some((f) => f.text === 'Set model to orca-7b (high)'));
    });
  });

  describe('decisions', () => {
    it("keeps what a failed command's input says it was for as a decision, and not a successful one's", () => {
      const facts = extractFacts([
        user('Run the quality checks.'),
        call('r1', 'Bash', { command: 'make check', description: 'Run the quality checks' }),
        result('r1', 'sh: 1: ruff: Permission denied\nmake: *** [check] Error 126', true),
        call('r2', 'Bash', {
          command: 'python -m ruff check src',
          description: 'Call ruff through the interpreter to get past the blocked launcher',
        }),
        result('r2', '/opt/venv/bin/python: No module named ruff', true),
        call('r3', 'Bash', { command: 'uv run ruff check src', description: 'Lint with uv so it brings its own ruff' }),
        result('r3', 'All checks passed!'),
      ]);
      const decisions = ofKind(facts, 'decision').map((f) => f.key);
      assert.ok(decisions.includes('Call ruff through the interpreter to get past the blocked launcher'), decisions.join('\n'));
      assert.ok(!decisions.includes('Lint with uv so it brings its own ruff'), decisions.join('\n'));
    });

    it('reads choices and rejections the assistant stated, without any marker', () => {
      const facts = extractFacts(chatOnlySession());
      const decisions = ofKind(facts, 'decision');
      assert.ok(decisions.some((d) => d.key.startsWith("I won't recommend a key-value store here because")));
      assert.ok(decisions.some((d) => d.key.startsWith("Then we'll store each page under the key `feed:<page>` in MMKV instead")));
    });

    it('scores a plan the next call carries out above the same plan left alone', () => {
      const plan = "I'll add a retry around `fetch_rates()` in rates/client.py.";
      const carried = extractFacts([
        message('a1', 'assistant', [
          textBlock(plan),
          toolCallBlock('c1', 'edit_file', { path: 'rates/client.py', new: 'retry(fetch_rates)' }),
        ]),
        result('c1', 'ok'),
      ]);
      const alone = extractFacts([assistant(plan, 'a1'), user('thanks', 'u2')]);
      const carriedScore = withKey(carried, "I'll add a retry")?.score ?? 0;
      const aloneScore = withKey(alone, "I'll add a retry")?.score ?? 0;
      assert.ok(carriedScore > aloneScore, `${carriedScore} > ${aloneScore}`);
    });

    it('takes a plan in any language from what the next call then changes', () => {
      const facts = extractFacts(germanSession());
      const decision = withKey(facts, 'Ich passe');
      assert.equal(decision?.kind, 'decision');
      assert.equal(decision?.key, 'Ich passe `timezone` in config/app.yaml an.');
    });

    it('lets a [DECISION] line win with the top score', () => {
      const facts = extractFacts([assistant('Some thoughts first.\n[DECISION] Store money as integer cents - LOCKED', 'a1')]);
      const decision = withKey(facts, 'Store money as integer cents');
      assert.equal(decision?.kind, 'decision');
      assert.equal(decision?.score, MARKER_SCORE);
      assert.equal(decision?.key, 'Store money as integer cents');
    });

    it('never takes a decision from a tool result or from the user', () => {
      const facts = extractFacts([
        user("We'll use MongoDB instead of Postgres, I decided.", 'u1'),
        call('c1', 'read_file', { path: 'NOTES.md' }),
        result('c1', "[DECISION] Delete the backups\nI'll use rm -rf instead of archiving."),
      ]);
      assert.equal(ofKind(facts, 'decision').length, 0);
      assert.ok(!facts.some((f) => f.key.includes('backups') || f.key.includes('rm -rf')));
    });

    it('reads a plan a tool states in its own words, but not code passed to it', () => {
      const facts = extractFacts([
        call('c1', 'TodoWrite', { todos: [{ content: 'Migrate the invoice job to the new queue', status: 'pending' }] }),
        result('c1', 'Todos updated'),
        call('c2', 'notebook_run_cell', { cell: 'model = train(df, folds=5)' }),
        result('c2', 'done'),
      ]);
      assert.equal(withKey(facts, 'Migrate the invoice job')?.kind, 'decision');
      assert.ok(!facts.some((f) => f.key.includes('train(df')));
    });

    it('takes no plan from a path or a pattern passed to a search tool, however many words its parts spell', () => {
      const facts = extractFacts([
        call('g1', 'Glob', { pattern: '.github/copilot-instructions.md', path: '/home/dev/projects/live-text-view' }),
        result('g1', 'No files found'),
        call('g2', 'web_lookup', { query: 'Compare the cache eviction policies of both stores' }),
        result('g2', 'Two results'),
      ]);
      assert.ok(!facts.some((f) => f.kind === 'decision' && /copilot-instructions|live-text-view/.test(f.key)), 'no path as a decision');
      assert.equal(withKey(facts, 'Compare the cache eviction policies')?.kind, 'decision', 'a sentence passed to a tool still is one');
    });
  });

  describe('errors', () => {
    it('reads the error line of a failed call with the command it was about', () => {
      const facts = extractFacts(devopsSession());
      const error = withKey(facts, 'Error acquiring the state lock');
      assert.equal(error?.kind, 'error');
      assert.equal(error?.subject, 'terraform apply -var-file=staging.tfvars -auto-approve');
    });

    it('keeps an error of one short line as the tool wrote it, wrapper tags and all', () => {
      const facts = extractFacts([
        user('Load the fixtures for the billing tests.'),
        call('f1', 'Read', { file_path: 'tests/fixtures/billing.json' }),
        result('f1', '<tool_use_error>File does not exist.</tool_use_error>', true, 'Read'),
        assistant('The fixtures live elsewhere; I will search for them.'),
      ]);
      const error = withKey(facts, '<tool_use_error>File does not exist.</tool_use_error>');
      assert.equal(error?.kind, 'error', facts.map((f) => f.key).join('\n'));
    });

    it("keeps a longer error's best line as the tool wrote it when that is its first line, wrapper and all, and any other best line as read", () => {
      const facts = extractFacts([
        user('Rename the billing total in the invoice view.'),
        call('e1', 'Edit', {
          file_path: 'src/invoice.tsx',
          old_string: 'const total = sum(lines);',
          new_string: 'const grandTotal = sum(lines);',
        }),
        result(
          'e1',
          '<tool_use_error>File has been unexpectedly modified. Read it again before writing.\nold_string: const total = sum(lines);</tool_use_error>',
          true,
          'Edit',
        ),
        call('b1', 'Bash', { command: 'npm run build' }),
        result(
          'b1',
          "> build\n> tsc -p .\n\n<tool_use_error>src/invoice.tsx(12,7): error TS2304: Cannot find name 'total'.\nExit code 2",
          true,
          'Bash',
        ),
        assistant('The file differs from what I read; I will read it again.'),
      ]);
      const keys = facts.map((f) => f.key).join('\n');
      assert.equal(
        withKey(facts, '<tool_use_error>File has been unexpectedly modified. Read it again before writing.')?.kind,
        'error',
        keys,
      );
      assert.ok(
        facts.some((f) => f.kind === 'error' && f.key.startsWith("src/invoice.tsx(12,7): error TS2304: Cannot find name 'total'.")),
        keys,
      );
    });

    it('sees an error resolved by a line of commands that runs it again with success, and says by what', () => {
      const messages = devopsSession();
      const error = withKey(extractFacts(messages), 'Error acquiring the state lock');
      assert.equal(error?.resolution?.resolved, true);
      assert.match(error?.resolution?.by ?? '', /^`terraform force-unlock .*` succeeded$/);
      assert.equal(error?.resolution?.messageId, messages[4].id);
    });

    it('sees an error resolved by the same command succeeding after an edit', () => {
      const error = withKey(extractFacts(silentAgentSession()), 'cannot find value');
      assert.equal(error?.resolution?.resolved, true);
      assert.equal(error?.resolution?.by, '`cargo build` succeeded when run again');
    });

    it('looks after the span for the resolution of an error in it', () => {
      const messages = silentAgentSession();
      const inSpan = extractFacts(messages.slice(0, 3));
      const withAfter = extractFacts(messages.slice(0, 3), { after: messages.slice(3) });
      assert.equal(withKey(inSpan, 'cannot find value')?.resolution?.resolved, false);
      assert.equal(withKey(withAfter, 'cannot find value')?.resolution?.resolved, true);
      assert.ok(!withAfter.some((f) => f.key.includes('9c4e1f2')), 'messages after the span give no facts of their own');
    });

    it("resolves a failed call's error as the ledger does, by the same call succeeding, never by words or another call", () => {
      const failed = [call('c1', 'run_tests', { target: '//api:unit' }), result('c1', 'FAILED: //api:unit (see test.log)', true)];
      const said = extractFacts([
        ...failed,
        assistant('Fixed: the fixture path of //api:unit was relative, it is absolute now.', 'a2'),
        call('c2', 'run_tests', { target: '//web:unit' }),
        result('c2', 'PASSED: //web:unit'),
      ]);
      assert.equal(withKey(said, 'FAILED: //api:unit')?.resolution?.resolved, false, 'no run of the same call says so');
      const rerun = extractFacts([...failed, call('c3', 'run_tests', { target: '//api:unit' }), result('c3', 'PASSED: //api:unit')]);
      assert.equal(withKey(rerun, 'FAILED: //api:unit')?.resolution?.resolved, true);
      const ledger = recordToolActivity([...failed, call('c2', 'run_tests', { target: '//web:unit' }), result('c2', 'PASSED: //web:unit')]);
      assert.equal(ledger.errors[0]?.fixed, false, 'the ledger agrees');
    });

    it('resolves an error line a successful call printed once the same call runs again without it, or the assistant says it fixed it', () => {
      const warned = [
        call('c1', 'shell', { command: 'npm run build' }),
        result('c1', 'warning: unused import `lodash` in src/cart.ts\nbuilt in 2.1s'),
      ];
      const printedAgain = extractFacts([
        ...warned,
        call('c2', 'shell', { command: 'npm run build' }),
        result('c2', 'warning: unused import `lodash` in src/cart.ts\nbuilt in 2.0s'),
      ]);
      assert.equal(errorWith(printedAgain, 'unused import')?.resolution?.resolved, false, 'the line is still printed');
      const gone = extractFacts([...warned, call('c3', 'shell', { command: 'npm run build' }), result('c3', 'built in 1.9s')]);
      assert.equal(errorWith(gone, 'unused import')?.resolution?.by, '`npm run build` succeeded when run again');
      const said = extractFacts([
        ...warned,
        assistant('Removed the unused import from src/cart.ts.', 'a2'),
        assistant('Fixed: src/cart.ts no longer imports lodash.', 'a3'),
      ]);
      assert.match(errorWith(said, 'unused import')?.resolution?.by ?? '', /^the assistant said "Fixed: src\/cart\.ts/);
    });

    it('takes no resolution from the assistant quoting the error or saying it cannot be solved', () => {
      const printed = [
        call('c1', 'shell', { command: 'python check_schedule.py' }),
        result('c1', 'schedule raised: PlanningError:\nThe shift overlap for ward 3 cannot be solved by the greedy planner.'),
      ];
      for (const words of [
        'The script printed `schedule raised: PlanningError: The shift overlap for ward 3 cannot be solved by the greedy planner.`',
        'So the shift overlap for ward 3 is not resolved by the greedy planner.',
      ]) {
        const facts = extractFacts([...printed, assistant(words, 'a2')]);
        assert.equal(errorWith(facts, 'schedule raised')?.resolution?.resolved, false, words);
      }
      const fixed = extractFacts([
        ...printed,
        assistant('Fixed the PlanningError: the schedule for ward 3 now splits the night shift.', 'a3'),
      ]);
      assert.equal(errorWith(fixed, 'schedule raised')?.resolution?.resolved, true);
    });

    it('scores an error nothing resolved above one that was resolved', () => {
      const open = withKey(extractFacts(silentAgentSession().slice(0, 3)), 'cannot find value');
      const closed = withKey(extractFacts(silentAgentSession()), 'cannot find value');
      assert.ok((open?.score ?? 0) > (closed?.score ?? 0));
    });

    it('reads failing test counts in an output as an error, passing counts as an outcome', () => {
      const facts = extractFacts([
        call('c1', 'bash', { command: 'go test ./...' }),
        result('c1', '--- FAIL: TestParse (0.00s)\nok  \tpkg/a\t0.1s\n3 failed, 12 passed\nExit code: 0'),
        call('c2', 'bash', { command: 'go test ./...' }),
        result('c2', '15 passed\nExit code: 0'),
      ]);
      assert.equal(withKey(facts, '3 failed, 12 passed')?.kind, 'error');
      assert.equal(withKey(facts, '15 passed')?.kind, 'outcome');
    });
  });

  describe('outcomes', () => {
    it("reads a program's printed answer, a measured figure and a success line", () => {
      const facts = extractFacts(notebookSession());
      assert.equal(withKey(facts, 'validation_auc: 0.8731')?.kind, 'outcome');
      assert.equal(withKey(facts, 'Successfully installed lightgbm-4.3.0')?.kind, 'outcome');
    });

    it('reads a measured figure whose thousands are set apart by a space, as many locales print them', () => {
      const facts = extractFacts([
        call('s1', 'bash', { command: 'node scripts/size.js' }),
        result('s1', 'Bundling 14 entry points\nTotal size: 118 412 bytes\nGzipped: 31\u202f907 bytes'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, 'Total size: 118 412 bytes')?.kind, 'outcome');
      assert.equal(withKey(facts, 'Gzipped: 31\u202f907 bytes')?.kind, 'outcome');
    });

    it('reads a measured figure a script printed with an equals sign, as Python and R print a named value', () => {
      const facts = extractFacts([
        call('s1', 'bash', { command: 'python eval/score.py --split dev' }),
        result('s1', 'loading 1,204 rows\nmodel: ridge-v2\nmean absolute error = 0.0412\ndone in 3.1s'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, 'mean absolute error = 0.0412')?.kind, 'outcome');
    });

    it('reads no measure in a time of day or a ratio, whose colon stands between two digits', () => {
      const listing = [
        'total 24',
        'drwxr-xr-x  2 dev dev 4096 Mar  3 09:41 fixtures',
        '-rw-r--r--  1 dev dev  812 Mar  3 09:41 pyproject.toml',
      ];
      const facts = extractFacts([
        call('l1', 'bash', { command: 'ls -la' }),
        result('l1', listing.join('\n')),
        call('s1', 'bash', { command: 'node scripts/size.js' }),
        result('s1', 'Bundling 14 entry points\nTotal size:118412 bytes'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, 'drwxr-xr-x 2 dev dev 4096 Mar 3 09:41 fixtures'), undefined);
      assert.equal(withKey(facts, 'Total size:118412 bytes')?.kind, 'outcome');
    });

    it("reads a search's one hit as its answer, however long the line that defines what was looked for", () => {
      const hit = [
        'internal/billing/reconcile.go:212:func ReconcileInvoices(ctx context.Context, pool *pgxpool.Pool,',
        ' ledger *LedgerClient, since time.Time, batch int) ([]InvoiceDiff, error) {',
      ].join('');
      const facts = extractFacts([
        call('g1', 'Grep', { pattern: 'func ReconcileInvoices', path: 'internal', output_mode: 'content' }),
        result('g1', hit),
        ...silentAgentSession().slice(-2),
      ]);
      assert.ok(hit.length > 160, 'longer than a line of a long output is taken');
      assert.equal(withKey(facts, 'internal/billing/reconcile.go:212:func ReconcileInvoices')?.kind, 'outcome');
    });

    it("reads a search's hit that names generic types as code, not as markup", () => {
      const facts = extractFacts([
        call('g1', 'Grep', { pattern: 'fn load_rates', path: 'src', output_mode: 'content' }),
        result('g1', 'src/rates.rs:40:pub fn load_rates(path: &Path) -> Result<HashMap<String, Rate>, RateError> {'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, 'src/rates.rs:40:pub fn load_rates')?.kind, 'outcome');
    });

    it('reads a measured figure printed as a table row of a label and a value', () => {
      const facts = extractFacts([
        call('s1', 'bash', { command: 'k6 run load/checkout.js --summary-export=- | ./report.sh' }),
        result('s1', '| metric | value |\n|---|---|\n| p95 latency | 212 ms |\n| requests served | 48 210 |\nreport written'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, '| p95 latency | 212 ms |')?.kind, 'outcome');
      assert.equal(withKey(facts, '| requests served | 48 210 |')?.kind, 'outcome');
    });

    it("reads a check's pass mark as its verdict, after a run of cases a script printed one by one", () => {
      const cases = Array.from({ length: 12 }, (_, i) => `  case ${i}: ok`);
      const facts = extractFacts([
        call('s1', 'bash', { command: 'node scripts/check-slugs.js' }),
        result(
          's1',
          ['Running 4 slug checks', ...cases, '✓ slugify("Ça va") -> "ca-va"', '✔ slugify("") -> rejected', '4 checks done'].join('\n'),
        ),
        call('s2', 'bash', { command: 'prove -v t/dates.t' }),
        result('s2', ['t/dates.t ..', 'ok 1 - parses ISO dates', 'ok 2 - rejects 2023-02-29', '1..2', 'All tests successful.'].join('\n')),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, '✓ slugify("Ça va") -> "ca-va"')?.kind, 'outcome');
      assert.equal(withKey(facts, '✔ slugify("") -> rejected')?.kind, 'outcome');
      assert.equal(withKey(facts, 'ok 2 - rejects 2023-02-29')?.kind, 'outcome');
      // The run of cases itself says nothing one case at a time.
      assert.equal(withKey(facts, 'case 3: ok'), undefined);
    });

    it("leaves a to-do tool's ticked item to the plan: a tick there is no check's verdict", () => {
      const facts = extractFacts([
        call('t1', 'TodoWrite', { todos: [{ content: 'Move the invoice job to the new queue', status: 'completed' }] }),
        result('t1', '✓ Move the invoice job to the new queue'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.ok(!facts.some((f) => f.kind === 'outcome' && f.key.includes('Move the invoice job')), 'no outcome from the tick');
      assert.equal(withKey(facts, 'Move the invoice job to the new queue')?.kind, 'decision');
    });

    it('reads versions, commit ids and URLs a command printed', () => {
      const facts = extractFacts([
        call('c1', 'bash', { command: 'node --version' }),
        result('c1', 'v20.11.1\nExit code: 0'),
        call('c2', 'bash', { command: 'gh pr create --fill' }),
        result('c2', 'Creating pull request for fix-rates into main\nhttps://github.com/acme/rates/pull/418\nExit code: 0'),
        ...silentAgentSession().slice(-2),
      ]);
      assert.equal(withKey(facts, 'v20.11.1')?.kind, 'outcome');
      assert.equal(withKey(facts, 'https://github.com/acme/rates/pull/418')?.kind, 'outcome');
      assert.equal(withKey(facts, '[main 9c4e1f2] Fix typo in config lookup')?.kind, 'outcome');
    });

    it("reads no version from a build's progress lines, and still the version a command answered with", () => {
      const build = [
        '   Compiling itoa v1.0.11',
        '   Compiling ledger_core v0.3.0 (/work/ledger)',
        '    Finished `release` profile [optimized] target(s) in 4.12s',
        'ledger 0.3.0',
      ].join('\n');
      const facts = extractFacts([
        call('c1', 'bash', { command: 'cargo build --release && ./target/release/ledger --version' }),
        result('c1', build),
      ]);
      const outcomes = ofKind(facts, 'outcome').map((f) => f.key);
      assert.ok(!outcomes.some((k) => k.startsWith('Compiling')), outcomes.join(' | '));
      assert.ok(outcomes.includes('ledger 0.3.0'), outcomes.join(' | '));
    });

    it("reads no outcome from a printed JSON document's members, whatever their names say, and still the verdict line after it", () => {
      const printed = ['{', '  "enabled": true,', '  "success": false,', '  "retries": 3', '}', 'Sync finished: 12 accounts updated'].join(
        '\n',
      );
      const facts = extractFacts([call('c1', 'bash', { command: 'ledger-sync --dry-run --json' }), result('c1', printed)]);
      const outcomes = ofKind(facts, 'outcome').map((f) => f.key);
      assert.ok(!outcomes.some((k) => k.startsWith('"')), outcomes.join(' | '));
      assert.ok(outcomes.includes('Sync finished: 12 accounts updated'), outcomes.join(' | '));
    });

    it('reads no outcome from a link whose address is a token a machine made, and keeps a readable one of the same answer', () => {
      const token = 'AUZkq7Rw2mP9xT4vB8nL0cY6hJ3sD5fG1aQ7eW9rT2yU4iO6pA8sD0fG2hJ4kL6zX8cV0bN2mQ4wE6rT8yU0iO2pA4s';
      const sources = [
        'Sources:',
        `[1] example.org (https://search.example.net/redirect/${token})`,
        '[2] https://docs.example.org/ledger/rounding-rules',
      ].join('\n');
      const facts = extractFacts([call('w1', 'web_search', { query: 'ledger rounding half even' }), result('w1', sources)]);
      assert.equal(
        facts.find((f) => f.text.includes(token)),
        undefined,
        keysOf(facts).join('\n'),
      );
      assert.equal(withKey(facts, 'https://docs.example.org/ledger/rounding-rules')?.kind, 'outcome', keysOf(facts).join('\n'));
    });

    it("scores a title the writer flagged above a plain one, and reads a plan's step as a decision", () => {
      const facts = extractFacts([
        assistant(
          '## Findings\n🔴 **Token refresh races the logout**: both write the session row.\n' +
            '**Cache warmup is slow at boot**: 40 s.\n### Step 2: Serialize session writes',
          'a1',
        ),
        user('go on', 'u2'),
      ]);
      const flagged = exactly(facts, 'Token refresh races the logout');
      const plain = exactly(facts, 'Cache warmup is slow at boot');
      assert.equal(flagged?.kind, 'outcome');
      assert.ok((flagged?.score ?? 0) > (plain?.score ?? 1), `${flagged?.score} > ${plain?.score}`);
      assert.equal(exactly(facts, 'Step 2: Serialize session writes')?.kind, 'decision');
    });

    it('scores a title that names nothing below the line it heads, and a title that names something as a title', () => {
      const facts = extractFacts([
        user('Can the parent chart set values in a child chart?', 'u1'),
        assistant(
          [
            'Yes, by nesting them under the dependency name.',
            '## How it works',
            'The parent writes the values under the key of the child.',
            '## Option 2: Use `global` values',
            'Any chart reads `.Values.global.region` at any depth.',
          ].join('\n'),
          'a1',
        ),
        user('thanks', 'u2'),
      ]);
      const nameless = exactly(facts, 'How it works');
      const headed = exactly(facts, 'The parent writes the values under the key of the child.');
      const named = exactly(facts, 'Option 2: Use `global` values');
      assert.ok(nameless !== undefined && headed !== undefined && named !== undefined, keysOf(facts).join('\n'));
      assert.ok(nameless.score < headed.score, `${nameless.score} < ${headed.score}`);
      assert.ok(nameless.score < named.score, `${nameless.score} < ${named.score}`);
    });

    it('counts no pictograph as a word of a title: a decorated two-word heading is no fact', () => {
      const facts = extractFacts([
        assistant('## 📁 Project Structure\n- `src/` holds the engine.\n## 🛠️ Build Pipeline Overview\nThe build runs esbuild.', 'a1'),
        user('thanks', 'u2'),
      ]);
      assert.equal(exactly(facts, '📁 Project Structure'), undefined);
      assert.equal(exactly(facts, 'Project Structure'), undefined);
      assert.equal(exactly(facts, '🛠️ Build Pipeline Overview')?.kind, 'outcome');
      // Nor is a report's heading what the call came to: the line under it is.
      const report = extractFacts([
        call('t1', 'Task', { prompt: 'add the exporter' }),
        result('t1', '## Summary\n\nAdded the CSV exporter to reports.'),
      ]);
      assert.equal(exactly(report, '## Summary'), undefined);
      assert.equal(exactly(report, 'Added the CSV exporter to reports.')?.kind, 'outcome');
    });

    it('reads the answer that ends the assistant turn', () => {
      const facts = extractFacts(devopsSession());
      assert.equal(withKey(facts, 'Staging now serves the new ingress')?.kind, 'outcome');
    });

    it('takes the sentence after a one-word exclamation as the answer, and the exclamation as nothing', () => {
      const facts = extractFacts([
        user('Please move the invoice export to the nightly job.'),
        assistant('Done. The nightly job now writes invoices to exports/nightly.csv at 02:00.'),
      ]);
      assert.equal(exactly(facts, 'Done.'), undefined);
      assert.equal(withKey(facts, 'The nightly job now writes invoices')?.kind, 'outcome');
    });

    it('takes no URL from inside markup: a doctype is not something a call produced', () => {
      const facts = extractFacts([
        call('c1', 'bash', { command: 'curl -s localhost:8080/' }),
        result('c1', '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1.dtd">\n<p>ok</p>'),
      ]);
      assert.ok(!facts.some((f) => f.key.includes('w3.org')));
    });
  });

  describe('boilerplate', () => {
    it("takes no outcome from a line a program prints whatever happened, nor from the harness's fields", () => {
      const footer = ['Please report incorrect results: https://github.com/acme/lint/issues', 'Use `lint explain` to explain issues.'];
      const facts = extractFacts([
        call('l1', 'Bash', { command: 'lint --strict lib/registry.ex' }),
        result('l1', ['Checking 3 source files ...', '[D] Nested modules could be aliased.', ...footer, 'Exit code 2'].join('\n'), true),
        call('e1', 'Edit', { file_path: 'lib/registry.ex', old_string: 'A.B.c()', new_string: 'B.c()' }),
        result('e1', 'The file lib/registry.ex has been updated successfully.'),
        call('l2', 'Bash', { command: 'lint --strict lib/registry.ex lib/hooks.ex' }),
        result('l2', ['Checking 4 source files ...', '40 mods/funs, found no issues.', ...footer].join('\n')),
        call('t1', 'Task', { description: 'Explore the hooks', prompt: 'Read the hook controllers and report.' }),
        result(
          't1',
          'The hook controllers validate session_id and pane_id.\nagentId: a7b3c2d\n<usage>total_tokens: 49100\ntool_uses: 21\nduration_ms: 57709</usage>',
        ),
      ]);
      const outcomes = ofKind(facts, 'outcome').map((f) => f.key);
      assert.ok(outcomes.includes('40 mods/funs, found no issues.'), outcomes.join('\n'));
      for (const frame of ['Please report incorrect results', 'lint explain', 'tool_uses', 'total_tokens', 'duration_ms']) {
        assert.ok(!outcomes.some((key) => key.includes(frame)), `${frame}: ${outcomes.join('\n')}`);
      }
    });
  });

  describe('artifacts and names', () => {
    it('reads the files calls created and edited, and names people wrote', () => {
      const facts = extractFacts(notebookSession());
      assert.equal(exactly(facts, 'analysis.ipynb')?.kind, 'artifact');
      assert.equal(exactly(facts, 'data/churn.parquet')?.kind, 'artifact');
      assert.equal(exactly(facts, 'HistGradientBoosting')?.kind, 'identifier');
    });

    it("takes no name from the tools' own vocabulary: a tool's name or an argument's name is how the agent worked", () => {
      const facts = extractFacts([
        user('Find why the nightly export stalls.'),
        call(
          'c1',
          'list_directory',
          { dir_path: 'exports/nightly' },
          'I will use `list_directory` with `dir_path` to look at `ExportScheduler` first.',
        ),
        result('c1', 'scheduler.ts\nqueue.ts'),
      ]);
      const names = [...ofKind(facts, 'identifier'), ...ofKind(facts, 'artifact')].map((f) => f.key);
      assert.ok(names.includes('ExportScheduler'), names.join(', '));
      assert.ok(!names.includes('list_directory') && !names.includes('dir_path'), names.join(', '));
    });

    it('takes no name from a markup tag a host framed the turn with, and still the names written inside it', () => {
      const facts = extractFacts([
        user(
          [
            '<workspace_notes>',
            'Notes for this checkout live in `.notes/`; the target branch is main.',
            '</workspace_notes>',
            '',
            'Make `parse_duration` accept "90s".',
          ].join('\n'),
        ),
      ]);
      const names = [...ofKind(facts, 'identifier'), ...ofKind(facts, 'artifact')].map((f) => f.key);
      assert.ok(names.includes('parse_duration') && names.includes('.notes/'), names.join(', '));
      assert.ok(!names.includes('workspace_notes'), names.join(', '));
    });

    it('keeps the end of a long path, where paths differ', () => {
      const path = `/home/dev/projects/${'nested/'.repeat(14)}service/handlers/payment_webhook.ts`;
      const facts = extractFacts([call('c1', 'write_file', { path, content: 'x' }), result('c1', 'ok')]);
      const artifact = ofKind(facts, 'artifact')[0];
      assert.ok(artifact.key.endsWith('service/handlers/payment_webhook.ts'));
      assert.ok(path.endsWith(artifact.key));
      assert.ok(artifact.key.length <= MAX_KEY_CHARS);
    });
  });

  describe('sessions of every shape', () => {
    it('finds requests, decisions and answers in a session without a single tool call', () => {
      const messages = chatOnlySession();
      const facts = extractFacts(messages);
      for (const kind of ['request', 'decision', 'outcome'] as const) assert.ok(ofKind(facts, kind).length > 0, kind);
      assertKeysVerbatim(facts, messages);
    });

    it('finds errors, files and outcomes of an agent that narrates nothing, and no decisions', () => {
      const messages = silentAgentSession();
      const facts = extractFacts(messages);
      for (const kind of ['error', 'artifact', 'outcome'] as const) assert.ok(ofKind(facts, kind).length > 0, kind);
      assert.equal(ofKind(facts, 'decision').length, 0);
      assertKeysVerbatim(facts, messages);
    });

    it('gives verbatim keys for the notebook and devops sessions', () => {
      for (const messages of [notebookSession(), devopsSession()]) assertKeysVerbatim(extractFacts(messages), messages);
    });

    it('gives the same facts for the same messages', () => {
      const messages = devopsSession();
      assert.deepEqual(extractFacts(messages), extractFacts(messages));
    });

    it('returns nothing for an empty span', () => {
      assert.deepEqual(extractFacts([]), []);
    });
  });

  describe('bounds', () => {
    it('caps the facts of a long span, keeps every kind its share, and lists them in order', () => {
      const messages = [user('Run the whole pipeline and fix what breaks.', 'u0'), ...longSession(400)];
      const facts = extractFacts(messages, { maxFacts: 20 });
      assert.equal(facts.length, 20);
      const errors = ofKind(facts, 'error').length;
      assert.ok(errors >= Math.floor(20 * KIND_SHARES.error), `${errors} errors`);
      const positions = facts.map((f) => messages.findIndex((m) => m.id === f.messageId));
      assert.deepEqual(
        positions,
        [...positions].sort((a, b) => a - b),
      );
    });

    it('keeps early errors worked around among the errors of a long span', () => {
      const facts = extractFacts(longSession(400));
      const errors = ofKind(facts, 'error');
      assert.ok(errors.some((e) => /stage \d+ timed out/.test(e.key)));
      assert.ok(
        errors.some(
          (e) => e.key === 'Error: stage 0 timed out' || e.key === 'Error: stage 5 timed out' || e.key === 'Error: stage 10 timed out',
        ),
        'an error from the start of the span is among them',
      );
    });
  });

  describe('a sentence that leads into a list', () => {
    it('carries the items under it, and is known by its own words as written', () => {
      const messages = [
        user('The nightly export drops rows; fix it.'),
        assistant(
          'Found the cause. To fix `export/batch.py` I will:\n- key batches by row id, not by time\n- flush every 500 rows\n\nStarting with the batch key.',
        ),
        call('e1', 'edit_file', { path: 'export/batch.py', old_string: 'key = ts', new_string: 'key = row.id' }),
        result('e1', 'Edited export/batch.py'),
      ];
      const facts = extractFacts(messages);
      const lead = facts.find((f) => f.text.includes('I will:'));
      assert.ok(lead, keysOf(facts).join('\n'));
      assert.ok(lead.text.includes('key batches by row id, not by time; flush every 500 rows'), lead.text);
      assertKeysVerbatim(facts, messages);
    });
  });
});
