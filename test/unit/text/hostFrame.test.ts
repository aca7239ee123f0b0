import * as assert from 'node:assert/strict';
import { withoutHostFrame } from '../../../src/engine/text/hostFrame';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { spanContentFacts } from '../../../src/engine/recall/contentLines';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { call, result } from '../support/builders';

/** A shell run's result as Cline and Roo Code hand it to the model: their label, the sentence that it ran, its output. */
const framedRun = (command: string, status: string, output: string) =>
  [
    `[execute_command for '${command}'] Result:`,
    `Command executed in terminal within working directory '/srv/billing'. ${status}`,
    'Output:',
    output,
  ].join('\n');

describe("a host's frame around a tool's result", () => {
  it('takes off the label a host puts above a result, also under the note that ctx sent the result to a file', () => {
    assert.equal(withoutHostFrame("[read_file for 'src/rates.ts'] Result:\nexport const VAT = 0.2;"), 'export const VAT = 0.2;');
    assert.equal(withoutHostFrame('[update_todo_list] Result:\nTodo list updated successfully.'), 'Todo list updated successfully.');
    const note = '[search_files result of 18,400 tokens, offloaded to offloaded/call7.txt]';
    assert.equal(
      withoutHostFrame(`${note}\n[search_files for 'invoice'] Result:\nsrc/invoice.ts:12: export function invoiceTotal()`),
      `${note}\nsrc/invoice.ts:12: export function invoiceTotal()`,
    );
    // Only above the result: the same words inside what a tool printed are its own.
    const quoted = 'Found in the log:\n[read_file for a.ts] Result:\nnothing';
    assert.equal(withoutHostFrame(quoted), quoted);
  });

  it("keeps what the program printed of a run the host reports in a sentence, and a failed run's exit status", () => {
    assert.equal(withoutHostFrame(framedRun('make rates', 'Exit code: 0', 'rates.csv written (412 rows)')), 'rates.csv written (412 rows)');
    assert.equal(
      withoutHostFrame(
        framedRun(
          'cargo build',
          'Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 101',
          'error[E0425]: cannot find value `rate` in this scope',
        ),
      ),
      'error[E0425]: cannot find value `rate` in this scope\nExit code: 101',
    );
  });

  it("keeps what the program printed of a record that opens with its output, and never a program's own line that does", () => {
    const record =
      "Output: \n> billing@2.1.0 build\n> tsc -p .\n\nsrc/rates.ts:12:3 - error TS2304: Cannot find name 'rate'.\nExit Code: 2\nProcess Group PGID: 40213";
    assert.equal(
      withoutHostFrame(record),
      "> billing@2.1.0 build\n> tsc -p .\n\nsrc/rates.ts:12:3 - error TS2304: Cannot find name 'rate'.\nExit Code: 2",
    );
    const printed = 'Output: 412 rows\nDirectory: /srv/billing/out';
    assert.equal(withoutHostFrame(printed), printed);
  });

  it("takes off the status line a host puts above the output, keeping a failed run's as written, after it", () => {
    assert.equal(withoutHostFrame('Process exited with code 0\nmigrations: 14 applied'), 'migrations: 14 applied');
    assert.equal(withoutHostFrame('Script completed\n\n# Runbook'), '# Runbook');
    assert.equal(
      withoutHostFrame('Process exited with code 64\npsql: FATAL: role "ops" does not exist\n'),
      'psql: FATAL: role "ops" does not exist\nProcess exited with code 64',
    );
    // Written as the host wrote it: a run that printed nothing is named by it.
    assert.equal(withoutHostFrame('Process exited with code 7'), 'Process exited with code 7');
    // A note that the host cut the output says the output did not reach the model whole: it stays.
    assert.equal(
      withoutHostFrame('Process exited with code 0\nTotal output lines: 880\n\nmigrations: 14 applied'),
      'Total output lines: 880\n\nmigrations: 14 applied',
    );
  });

  it('takes off the state a host writes under an observation, and nothing when the output only ends like it', () => {
    const state = '\n(Open file: /srv/app/ledger.py)\n(Current directory: /srv/app)\n(Interactive session: n/a)\nbash-$';
    assert.equal(withoutHostFrame(`3 rows imported\nledger balanced: 0.00${state}`), '3 rows imported\nledger balanced: 0.00');
    assert.equal(withoutHostFrame(state.trim()), '');
    assert.equal(withoutHostFrame('print(total(rows))'), 'print(total(rows))');
    assert.equal(withoutHostFrame('rows imported (3)\n(skipped: none)'), 'rows imported (3)\n(skipped: none)');
  });

  it('keeps the notes of a run the tool stopped as lines after what it printed, without their tags or the empty placeholder', () => {
    const notes = (note: string) => `\n\n<shell_metadata>\n${note}\n</shell_metadata>`;
    assert.equal(withoutHostFrame(`(no output)${notes('User aborted the command')}`), 'User aborted the command');
    const timedOut = 'shell tool terminated command after exceeding timeout 30000 ms.';
    assert.equal(withoutHostFrame(`Seeding 3 tenants\nacme: 12 rows${notes(timedOut)}`), `Seeding 3 tenants\nacme: 12 rows\n${timedOut}`);
    const [error] = recordToolActivity([
      call('t1', 'bash', { command: 'npm run seed' }),
      result('t1', `(no output)${notes('User aborted the command')}`, true),
    ]).errors;
    assert.equal(error?.summary, 'User aborted the command');
  });

  it("takes off VS Code's note that the command run is not the one asked for, whatever the command spans", () => {
    const simplified = 'Note: The tool simplified the command to `npm run seed`, and this is the output of running that command instead:\n';
    assert.equal(withoutHostFrame(`${simplified}Seeded 3 tenants\n`), 'Seeded 3 tenants\n');
    const heredoc = "cat > notes.md << 'END'\n# Tenants\nEND";
    const edited = `Note: The user manually edited the command to \`${heredoc}\`, and this is the output of running that command instead:\nheredoc> # Tenants`;
    assert.equal(withoutHostFrame(edited), 'heredoc> # Tenants');
    const withTerminal =
      'Note: The tool simplified the command to `git status --short` (terminal ID=7f2c). This is the output of running that command instead:\n M src/cart.ts';
    assert.equal(withoutHostFrame(withTerminal), ' M src/cart.ts');
    assert.equal(withoutHostFrame('Note: this is the output of the build\nok'), 'Note: this is the output of the build\nok');

    const record = recordToolActivity([
      call('t1', 'run_in_terminal', { command: 'cd /srv/shop && npm run seed' }),
      result('t1', `${simplified}Seeded 3 tenants\nglobex: 10 rows`),
    ]);
    assert.equal(record.commands[0]?.output, 'Seeded 3 tenants … globex: 10 rows');
  });

  it('quotes a file read through the shell as its lines, without the status line above them', () => {
    const runbook = Array.from({ length: 30 }, (_, i) => `Step ${i + 1}: restart worker ${i + 1} of the billing pool`).join('\n');
    const steps = readToolSteps([
      call('r1', 'exec_command', { cmd: 'cat docs/runbook.md' }),
      result('r1', `Process exited with code 0\n${runbook}`),
    ]);
    const quoted = spanContentFacts(steps).map((f) => f.text);
    assert.ok(
      quoted.some((t) => t.includes('Step 1: restart worker 1')),
      quoted.join('\n'),
    );
    assert.ok(!quoted.some((t) => t.includes('Process exited')), quoted.join('\n'));
  });

  it("names a framed run's error by what the program printed and shows its output without the frame in the ledger", () => {
    const messages = [
      call('c1', 'execute_command', { command: 'cargo build' }),
      result(
        'c1',
        framedRun(
          'cargo build',
          'Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 101',
          '   Compiling billing v0.3.0\nerror[E0425]: cannot find value `rate` in this scope',
        ),
        true,
      ),
      call('c2', 'execute_command', { command: 'make rates' }),
      result('c2', framedRun('make rates', 'Exit code: 0', 'Rate tables: EUR, USD, GBP\nrates.csv written (412 rows)')),
    ];
    const record = recordToolActivity(messages);
    assert.deepEqual(
      record.errors.map((e) => e.summary),
      ['error[E0425]: cannot find value `rate` in this scope'],
    );
    assert.equal(record.commands.find((c) => c.callId === 'c2')?.output, 'Rate tables: EUR, USD, GBP … rates.csv written (412 rows)');
  });

  it('reads no fact of the frame: not the label as an outcome or an error, not the sentence that the command ran', () => {
    const facts = extractFacts([
      call('s1', 'codebase_search', { query: 'rate rounding error' }),
      result('s1', "[codebase_search for 'rate rounding error'] Result:\nQuery: rate rounding error\nResults:\n\nsrc/rates.ts"),
      call('c1', 'execute_command', { command: 'make rates' }),
      result('c1', framedRun('make rates', 'Exit code: 0', 'rates.csv written (412 rows)')),
      call('w1', 'write_to_file', { path: 'docs/rates.md', content: '# Rates\n' }),
      result('w1', "[write_to_file for 'docs/rates.md'] Result:\nThe content was successfully saved to docs/rates.md."),
    ]);
    const framed = facts.filter((f) => /\] Result:|Command executed/.test(f.text));
    assert.deepEqual(
      framed.map((f) => f.text),
      [],
    );
    assert.ok(
      facts.some((f) => f.text === 'The content was successfully saved to docs/rates.md.'),
      facts.map((f) => f.text).join('\n'),
    );
  });
});
