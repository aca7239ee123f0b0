import * as assert from 'node:assert/strict';
import { changeBetween, editChange, putInStretches } from '../../../src/engine/recall/editChange';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import type { Fact, FactKind } from '../../../src/engine/model/fact';
import { keyOf } from '../../../src/engine/facts/factKey';
import { planItems } from '../../../src/engine/recall/planItems';
import { statementOf } from '../../../src/engine/recall/statementCues';
import { assistant, call, result, user } from '../support/builders';

const ofKind = (facts: readonly Fact[], kind: FactKind) => facts.filter((f) => f.kind === kind);
const exactly = (facts: readonly Fact[], key: string) => facts.find((f) => f.key === key);

describe('facts read from what tools were given and said', () => {
  describe('plan items', () => {
    it('reads the steps of a plan tool whose items carry a text and a status, whatever the tool is called', () => {
      const input = {
        explanation: 'Splitting the port into steps',
        plan: [
          { step: 'Port the Kotlin DTOs to Swift Codable structs', status: 'completed' },
          { step: 'Wire the Combine publisher into the settings view', status: 'in_progress' },
        ],
      };
      assert.deepEqual(planItems(input), [
        'Port the Kotlin DTOs to Swift Codable structs',
        'Wire the Combine publisher into the settings view',
      ]);
      const facts = extractFacts([call('p1', 'record_progress', input), result('p1', 'Plan updated')]);
      const decision = exactly(facts, 'Wire the Combine publisher into the settings view');
      assert.equal(decision?.kind, 'decision');
    });

    it('reads a list under a plan-like name even when its items have no status, and a Markdown checklist', () => {
      assert.deepEqual(planItems({ tasks: ['Benchmark the Elixir GenServer under load', 'x'] }), [
        'Benchmark the Elixir GenServer under load',
      ]);
      assert.deepEqual(planItems({ body: '## Plan\n- [x] Vendor the protobuf schema\n- [ ] Regenerate the Go stubs\nnotes' }), [
        'Vendor the protobuf schema',
        'Regenerate the Go stubs',
      ]);
    });

    it('reads a to-do list written one item a line with no list marker, each item with its status in brackets', () => {
      const todos =
        '[x] Profile the image resizer on large uploads\n[-] Cache resized thumbnails in Redis\n[ ] Drop the legacy resize endpoint';
      assert.deepEqual(planItems({ todos }), [
        'Profile the image resizer on large uploads',
        'Cache resized thumbnails in Redis',
        'Drop the legacy resize endpoint',
      ]);
      const facts = extractFacts([call('t1', 'update_todo_list', { todos }), result('t1', 'Todo list updated successfully.')]);
      assert.equal(exactly(facts, 'Cache resized thumbnails in Redis')?.kind, 'decision');
      // Brackets that hold a word or a number are a link's text or a reference, not a status.
      assert.deepEqual(planItems({ notes: '[docs] Read the resize guide first\n[2] Benchmarks from the last release' }), []);
    });

    it('takes no items from a list of data: records without status under an ordinary name, ids, long text', () => {
      assert.deepEqual(planItems({ rows: [{ title: 'Quarterly revenue by region' }] }), []);
      assert.deepEqual(planItems({ todos: [{ content: 'a1b2c3d4', status: 'pending' }] }), []);
      assert.deepEqual(planItems({ todos: [{ content: `Rewrite ${'the parser '.repeat(30)}`, status: 'pending' }] }), []);
    });

    it('lists each item once, in the order given', () => {
      const items = planItems({
        items: [
          { text: 'Add the Flyway migration for invoices', done: false },
          { text: 'Add the Flyway migration for invoices', done: true },
          { text: 'Backfill invoice totals in batches', done: false },
        ],
      });
      assert.deepEqual(items, ['Add the Flyway migration for invoices', 'Backfill invoice totals in batches']);
    });
  });

  describe('what an edit changed', () => {
    it('reads the first changed line on each side of a replacement, past the lines both sides share', () => {
      const change = editChange({
        file: 'lib/router.ex',
        old_text: 'defmodule Router do\n  plug :match\n  plug :dispatch\nend',
        new_text: 'defmodule Router do\n  plug Plug.Logger\n  plug :match\n  plug :dispatch\nend',
      });
      assert.deepEqual(change, { added: 'plug Plug.Logger' });
      assert.deepEqual(changeBetween('timeout = 30\nretries = 2', 'timeout = 90\nretries = 2'), {
        removed: 'timeout = 30',
        added: 'timeout = 90',
      });
    });

    it('reads the first edit of a list of edits, and the first lines of a unified diff or SEARCH/REPLACE block', () => {
      assert.deepEqual(editChange({ path: 'a.go', edits: [{ oldText: 'return nil', newText: 'return ErrClosed' }] }), {
        removed: 'return nil',
        added: 'return ErrClosed',
      });
      const diff =
        '--- a/cmd/main.go\n+++ b/cmd/main.go\n@@ -3,2 +3,2 @@\n-\tlog.Fatal(srv.ListenAndServe())\n+\tlog.Fatal(srv.ListenAndServeTLS(cert, key))\n';
      assert.deepEqual(editChange({ patch: diff }), {
        removed: 'log.Fatal(srv.ListenAndServe())',
        added: 'log.Fatal(srv.ListenAndServeTLS(cert, key))',
      });
      const block =
        'src/app.rb\n<<<<<<< SEARCH\nconfig.cache_store = :memory_store\n=======\nconfig.cache_store = :redis_cache_store\n>>>>>>> REPLACE';
      assert.deepEqual(editChange({ diff: block }), {
        removed: 'config.cache_store = :memory_store',
        added: 'config.cache_store = :redis_cache_store',
      });
    });

    it('gives a changed line whole: a line that opens a value comes with the lines that close it, else the next whole line', () => {
      const hooks = '{\n  "hooks": {\n    "Stop": [\n      { "command": "notify-end.sh" }\n    ],\n    "Start": []\n  }\n}';
      assert.deepEqual(changeBetween('{\n  "hooks": {\n    "Start": []\n  }\n}', hooks), {
        added: '"Stop": [ { "command": "notify-end.sh" } ],',
      });
      const long = `if (ready &&\n  ${'isConfigured(settings) && '.repeat(12)}true) {\n  start();\n}`;
      assert.deepEqual(
        changeBetween('stop();', long),
        { removed: 'stop();', added: 'start();' },
        'a value too long to give whole leaves its place to a whole line',
      );
      const diff = '--- a/app.json\n+++ b/app.json\n@@ -1,2 +1,4 @@\n {\n+  "plugins": [\n+    "expo-router"\n+  ],\n   "name": "app"\n';
      assert.deepEqual(editChange({ patch: diff }), { added: '"plugins": [ "expo-router" ],' });
    });

    it('names no change when the input holds none or only punctuation changed', () => {
      assert.equal(editChange({ path: 'x.ts', content: 'whole file' }), undefined);
      assert.equal(changeBetween('  }\n})', '  }\n});'), undefined);
    });

    it("gives an edit's first added line as an outcome keyed on the line itself", () => {
      const added = 'ssl_mode: System.get_env("DB_SSL") == "true"';
      const facts = extractFacts([
        call('e1', 'edit_file', { path: 'config/runtime.exs', old_string: 'ssl_mode: false', new_string: added }),
        result('e1', 'Applied 1 edit to config/runtime.exs'),
      ]);
      const outcome = exactly(facts, added);
      assert.equal(outcome?.kind, 'outcome');
      assert.ok(outcome?.text.includes('runtime.exs'), outcome?.text);
      assert.equal(exactly(facts, 'ssl_mode: false')?.kind, 'outcome');
    });

    it('gives the code an edit puts in after the comment it opens with as an outcome too, in any comment syntax', () => {
      const code = 'config :library, Library.Mailer, adapter: Swoosh.Adapters.Local';
      const facts = extractFacts([
        call('e1', 'edit_file', {
          path: 'config/dev.exs',
          old_string: 'config :library, Library.Mailer, adapter: Swoosh.Adapters.Sendgrid',
          new_string: `# Mails stay on this machine in development.\n${code}`,
        }),
        result('e1', 'Applied 1 edit to config/dev.exs'),
      ]);
      assert.equal(exactly(facts, code)?.kind, 'outcome');
      assert.equal(
        exactly(facts, 'Mails stay on this machine in development.')?.kind ??
          exactly(facts, '# Mails stay on this machine in development.')?.kind,
        'outcome',
      );
      const slashes = extractFacts([
        call('e2', 'edit_file', {
          path: 'src/fine.ts',
          old_string: 'const days = 1;',
          new_string: '// count whole days\nconst days = Math.ceil(ms / DAY);',
        }),
        result('e2', 'Applied 1 edit to src/fine.ts'),
      ]);
      assert.equal(exactly(slashes, 'const days = Math.ceil(ms / DAY);')?.kind, 'outcome');
      const codeFirst = extractFacts([
        call('e3', 'edit_file', { path: 'src/fine.ts', old_string: 'const days = 1;', new_string: 'const days = 2;\nconst weeks = 1;' }),
        result('e3', 'Applied 1 edit to src/fine.ts'),
      ]);
      assert.equal(exactly(codeFirst, 'const weeks = 1;'), undefined, 'an edit that opens with code gives its first line only');
    });

    it("reads what an insertion or a merged snippet put in, without the snippet's stand-ins for the lines it keeps", () => {
      const snippet = extractFacts([
        call('e1', 'insert_edit_into_file', {
          filePath: 'src/loans/notify.ts',
          code: [
            '// ...existing code...',
            'export function remindBorrower(loan: Loan): void {',
            '  mailer.send(loan.borrower, dueSoon(loan));',
            '}',
            '// ...existing code...',
          ].join('\n'),
        }),
        result('e1', 'Edited src/loans/notify.ts'),
      ]);
      assert.ok(
        snippet.some(
          (f) => f.kind === 'outcome' && f.text.startsWith('Now in notify.ts: export function remindBorrower(loan: Loan): void {'),
        ),
        snippet.map((f) => f.text).join('\n'),
      );
      assert.ok(!snippet.some((f) => f.text.includes('existing code')), 'a stand-in is not what the file holds');
      const inserted = extractFacts([
        call('e2', 'str_replace_editor', { command: 'insert', path: '/repo/fines.py', insert_line: 3, new_str: 'MAX_FINE_CENTS = 500' }),
        result('e2', 'The file /repo/fines.py has been edited.'),
      ]);
      assert.equal(exactly(inserted, 'MAX_FINE_CENTS = 500')?.kind, 'outcome');
    });

    it('gives no line an edit took out when the line it put in only adds to it, and keeps one whose value changed', () => {
      const extended = extractFacts([
        call('e1', 'edit_file', {
          path: 'docs/RULES.md',
          old_string: '- Keep loans short',
          new_string: '- Keep loans short, two weeks at most.',
        }),
        result('e1', 'Applied 1 edit to docs/RULES.md'),
      ]);
      assert.equal(exactly(extended, '- Keep loans short, two weeks at most.')?.kind, 'outcome');
      assert.equal(exactly(extended, '- Keep loans short'), undefined, 'the longer line says it all');
      const changed = extractFacts([
        call('e2', 'edit_file', { path: 'src/due.ts', old_string: 'const GRACE_DAYS = 0;', new_string: 'const GRACE_DAYS = 2;' }),
        result('e2', 'Applied 1 edit to src/due.ts'),
      ]);
      assert.equal(exactly(changed, 'const GRACE_DAYS = 0;')?.kind, 'outcome', 'the value that was wrong stays');
    });

    it('reads the first line put in at each place an edit changes: a replacement of two places, a patch of two hunks', () => {
      const before = ['def due(loan):', '    days = 14', '    start = loan.start', '    return start + days', ''].join('\n');
      const after = [
        'def due(loan):',
        '    days = GRACE_DAYS + 14',
        '    start = loan.start',
        '    if loan.renewed_at:',
        '        start = loan.renewed_at',
        '    return start + days',
        '',
      ].join('\n');
      assert.deepEqual(putInStretches({ old_string: before, new_string: after }), ['days = GRACE_DAYS + 14', 'if loan.renewed_at:']);
      const patch = [
        '*** Begin Patch',
        '*** Update File: src/fines.py',
        '@@',
        '-RATE = 0.1',
        '+RATE = Decimal("0.25")',
        ' ',
        '@@ def total(items):',
        '-    return sum(items)',
        '+    return round_half_up(sum(items))',
        '*** End Patch',
      ].join('\n');
      assert.deepEqual(putInStretches({ patch }), ['RATE = Decimal("0.25")', 'return round_half_up(sum(items))']);
      assert.deepEqual(putInStretches({ old_string: 'a\nb', new_string: 'a\nb' }), [], 'nothing put in, no line');
    });

    it("gives the line put in at an edit's second place as an outcome naming the file, as its first", () => {
      const facts = extractFacts([
        call('e1', 'edit_file', {
          path: 'lib/loans.py',
          old_string: '    days = 14\n    start = loan.start\n    return start + days',
          new_string:
            '    days = GRACE_DAYS + 14\n    start = loan.start\n    if loan.renewed_at:\n        start = loan.renewed_at\n    return start + days',
        }),
        result('e1', 'Applied 1 edit to lib/loans.py'),
      ]);
      const now = facts.filter((f) => f.text.startsWith('Now in ')).map((f) => f.text);
      assert.ok(now.includes('Now in loans.py: days = GRACE_DAYS + 14'), now.join(' | '));
      assert.ok(now.includes('Now in loans.py: if loan.renewed_at:'), now.join(' | '));
    });

    it('drops a line an edit put in once a later edit or a rewrite of the same file took it out again, and keeps it otherwise', () => {
      const facts = extractFacts([
        call('e1', 'edit_file', { path: 'src/client.ts', old_string: 'const retries = 0;', new_string: 'const retries = 3;' }),
        result('e1', 'Applied 1 edit to src/client.ts'),
        call('e2', 'edit_file', { path: 'src/server.ts', old_string: 'const port = 80;', new_string: 'const port = 8080;' }),
        result('e2', 'Applied 1 edit to src/server.ts'),
        call('e3', 'edit_file', { path: 'src/client.ts', old_string: 'const retries = 3;', new_string: 'const retries = 5;' }),
        result('e3', 'Applied 1 edit to src/client.ts'),
        call('e4', 'edit_file', { path: 'src/cache.ts', old_string: 'ttl = 60', new_string: 'ttl = 300' }),
        result('e4', 'Applied 1 edit to src/cache.ts'),
        call('w1', 'write_file', { path: 'src/cache.ts', content: 'export const ttl = 120;\n' }),
        result('w1', 'Wrote src/cache.ts'),
        call('e5', 'edit_file', { path: 'src/server.ts', old_string: 'const host = "a";', new_string: 'const host = "b";' }),
        result('e5', 'Applied 1 edit to src/server.ts'),
      ]);
      const now = facts.filter((f) => f.text.startsWith('Now in ')).map((f) => f.text);
      assert.ok(now.includes('Now in client.ts: const retries = 5;'), now.join(' | '));
      assert.ok(!now.some((t) => t.includes('retries = 3')), 'the later edit took `retries = 3` out');
      assert.ok(!now.some((t) => t.includes('ttl = 300')), 'the rewrite of the whole file left `ttl = 300` out');
      assert.ok(now.includes('Now in server.ts: const port = 8080;'), 'a later edit elsewhere in the file leaves the line as it is');
    });

    it('names the edit that resolved an error with the first line it put in', () => {
      const facts = extractFacts([
        call('b1', 'str_replace', { path: 'src/Billing.kt', old_str: 'val total = amount.round()', new_str: 'val total = amount' }),
        result('b1', 'Error: no match for old_str in src/Billing.kt: unresolved reference to the text', true),
        call('e1', 'str_replace', {
          path: 'src/Billing.kt',
          old_str: 'val total = amount.roundHalfEven()',
          new_str: 'val total = amount.setScale(2, RoundingMode.HALF_EVEN)',
        }),
        result('e1', 'ok'),
      ]);
      const error = facts.find((f) => f.kind === 'error' && f.key.includes('no match for old_str'));
      assert.equal(error?.resolution?.resolved, true);
      assert.equal(error?.resolution?.by, 'edited src/Billing.kt, putting in `val total = amount.setScale(2, RoundingMode.HALF_EVEN)`');
    });
  });

  describe('the confirmation line of a write', () => {
    it("keys a written file on the tool's own short confirmation line when it names the file", () => {
      const line = 'Wrote 42 lines to /srv/app/migrations/0007_add_index.sql';
      const facts = extractFacts([
        assistant('The new index belongs in /srv/app/migrations/0007_add_index.sql, after the last migration.', 'a0'),
        call('w1', 'write_file', { file_path: '/srv/app/migrations/0007_add_index.sql', content: 'CREATE INDEX ...' }),
        result('w1', `${line}\n`),
      ]);
      assert.equal(exactly(facts, line)?.kind, 'artifact');
      assert.ok(!facts.some((f) => f.key === '/srv/app/migrations/0007_add_index.sql'), 'the path needs no fact of its own');
    });

    it('keys a written file on a confirmation line longer than a key, so the line is shown, not only the path', () => {
      const path = '/home/dev/projects/inventory-service/src/main/kotlin/com/example/inventory/ReservationController.kt';
      const line = `The file ${path} has been updated successfully.`;
      const facts = extractFacts([
        call('e1', 'edit_file', { file_path: path, old_string: 'val ttl = 30', new_string: 'val ttl = 45' }),
        result('e1', `${line}\n`),
      ]);
      const confirmation = facts.find((f) => f.text === line);
      assert.equal(confirmation?.kind, 'artifact');
      assert.ok(line.startsWith(confirmation.key), 'known by its start');
      assert.ok(!facts.some((f) => f.key.endsWith('ReservationController.kt')), 'the path needs no fact of its own');
    });

    it('keys on the path when the result does not name the file or is longer than a fact', () => {
      const path = 'web/src/hooks/useDebounce.tsx';
      const silent = extractFacts([call('w1', 'create_file', { path, content: 'export {}' }), result('w1', 'ok')]);
      assert.equal(exactly(silent, path)?.kind, 'artifact');
      const wordy = extractFacts([
        call('w2', 'create_file', { path, content: 'export {}' }),
        result('w2', `The file ${path} was created ${'and formatted with the project settings '.repeat(5)}`),
      ]);
      assert.equal(exactly(wordy, path)?.kind, 'artifact');
    });
  });

  describe('what a file operation says it is for', () => {
    it("keeps the first sentence of an edit's own account of itself as a decision, never the text it writes", () => {
      const facts = extractFacts([
        user('Orders should not keep the draft flag after checkout.'),
        call('r1', 'replace', {
          file_path: 'services/orders/checkout.py',
          instruction: 'Clear the draft flag once the order is paid. Otherwise the cart page keeps showing it.',
          old_string: 'order.status = "paid"',
          new_string: 'order.status = "paid"\norder.is_draft = False',
        }),
        result('r1', 'Successfully modified file: services/orders/checkout.py (1 replacements).'),
        call('w1', 'insert_edit_into_file', {
          filePath: 'docs/checkout.md',
          explanation: 'Document that paid orders are never drafts',
          code: 'Paid orders are never drafts, whatever the cart says.',
        }),
        result('w1', 'The file was edited.'),
      ]);
      const decisions = ofKind(facts, 'decision').map((f) => f.text);
      assert.ok(decisions.includes('Clear the draft flag once the order is paid.'), decisions.join('\n'));
      assert.ok(decisions.includes('Document that paid orders are never drafts'), decisions.join('\n'));
      assert.ok(
        !facts.some((f) => f.kind === 'decision' && f.text.includes('whatever the cart says')),
        "what the edit wrote is the file's",
      );
    });
  });

  describe('failures stated in a delegated report', () => {
    it("reads a failure a sub-agent states in words in its report's opening, as an error about that call", () => {
      const report = JSON.stringify({
        summary: 'The crawl was interrupted before the sitemap could be parsed. Partial results follow.',
      });
      const facts = extractFacts([
        user('Find every page that links to the retired pricing page.', 'u1'),
        call('t1', 'spawn_subagent', { prompt: 'crawl the site' }),
        result('t1', report),
      ]);
      const error = exactly(facts, 'The crawl was interrupted before the sitemap could be parsed.');
      assert.equal(error?.kind, 'error');
      assert.equal(error?.subject, 'spawn_subagent');
    });

    it('takes no failure from a report that denies one, nor from a tool that is not a delegation', () => {
      const denied = extractFacts([
        call('t1', 'delegate_task', { prompt: 'audit' }),
        result('t1', 'The audit finished without errors. Every handler is covered.'),
      ]);
      assert.equal(ofKind(denied, 'error').length, 0);
      const lookup = extractFacts([call('k1', 'kb_lookup', { q: 'retries' }), result('k1', 'Retries were interrupted by design in v2.')]);
      assert.equal(ofKind(lookup, 'error').length, 0);
    });

    it('takes no failure from code a report quotes, nor from a feature it built that handles errors, nor from the items of its lists and tables', () => {
      const report = [
        '## Summary',
        'Built the invoice exporter with retry and error handling for every upload.',
        '- **Error Handling**: graceful exception handlers around the S3 client',
        '```ts',
        'const { rows, error, retry } = useExport();',
        'if (error) throw new UploadFailed(error);',
        '```',
      ].join('\n');
      const facts = extractFacts([call('t1', 'Task', { prompt: 'build the exporter' }), result('t1', report)]);
      assert.deepEqual(
        ofKind(facts, 'error').map((f) => f.key),
        [],
      );
      const requirements = extractFacts([
        call('t3', 'Task', { prompt: 'explore the hook controllers' }),
        result(
          't3',
          [
            'I read both hook controllers end to end.',
            '**Key Features**:',
            '- Validates required params: `session_id`, `pane_id`',
            '- Fails gracefully with appropriate HTTP status codes',
            '| Endpoint | Behaviour |',
            '| --- | --- |',
            '| session-end | fails with 422 when the id is missing |',
          ].join('\n'),
        ),
      ]);
      assert.deepEqual(
        ofKind(requirements, 'error').map((f) => f.key),
        [],
        'the items of a list or a table describe the work, they are no failure of it',
      );
      const failed = extractFacts([
        call('t2', 'Task', { prompt: 'deploy it' }),
        result('t2', 'The deploy failed: the bucket policy denies PutObject.'),
      ]);
      assert.equal(ofKind(failed, 'error').length, 1);
    });

    it("takes no failure from a report's sections, which describe what it looked at, but still from a section it opens with", () => {
      const sections = extractFacts([
        call('t1', 'Task', { prompt: 'map the retry settings' }),
        result(
          't1',
          [
            'I went through the three files that configure retries.',
            '',
            '## `src/queue/worker.ts`',
            'Two settings decide when a job counts as a failure and is sent to the dead-letter queue.',
          ].join('\n'),
        ),
      ]);
      assert.deepEqual(
        ofKind(sections, 'error').map((f) => f.key),
        [],
      );
      const headed = extractFacts([
        call('t2', 'Task', { prompt: 'run the migration' }),
        result('t2', ['## Result', 'The migration failed: the users table is locked by another session.', '## Details', 'n/a'].join('\n')),
      ]);
      assert.deepEqual(
        ofKind(headed, 'error').map((f) => f.key),
        ['The migration failed: the users table is locked by another session.'],
      );
    });
  });

  describe("a plan tool's acknowledgement", () => {
    it('is no outcome: the plan items are the facts, and another tool saying it succeeded still is one', () => {
      const ack = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.';
      const facts = extractFacts([
        call('p1', 'write_todos', { todos: [{ content: 'Migrate the billing cron to Temporal', status: 'in_progress' }] }),
        result('p1', ack),
        call('d1', 'deploy_preview', { branch: 'billing-temporal' }),
        result('d1', 'Preview deployed successfully to billing-temporal.pages.dev'),
      ]);
      assert.equal(exactly(facts, 'Migrate the billing cron to Temporal')?.kind, 'decision');
      assert.ok(!facts.some((f) => f.key.startsWith('Todos have been modified')), facts.map((f) => f.key).join(' | '));
      assert.ok(
        ofKind(facts, 'outcome').some((f) => f.key.startsWith('Preview deployed successfully')),
        facts.map((f) => f.key).join(' | '),
      );
    });
  });

  describe('cues and keys', () => {
    it('still reads a failure after a denial in another clause', () => {
      assert.equal(statementOf("The worker couldn't start and failed with a port conflict.")?.kind, 'error');
      assert.equal(statementOf("The migration didn't produce any errors."), undefined);
    });

    it('reads a failure word that names a part of the program (error handling, exception handlers) as no failure', () => {
      assert.equal(statementOf('Added comprehensive error handling and an error boundary around the editor.'), undefined);
      assert.equal(statementOf('Exception handlers now wrap every job.'), undefined);
      assert.equal(statementOf('The error handling test failed on Windows.')?.kind, 'error');
      assert.equal(statementOf('The error states that the token expired.')?.kind, 'error');
    });

    it('keeps a word that ends exactly at the key limit whole', () => {
      const text = `${'word '.repeat(19)}abcd, efgh`;
      const key = keyOf(text, 99);
      assert.equal(key, `${'word '.repeat(19)}abcd`);
      assert.equal(keyOf(`${'word '.repeat(19)}abcdefgh`, 99), `${'word '.repeat(18)}word`);
    });
  });
});
