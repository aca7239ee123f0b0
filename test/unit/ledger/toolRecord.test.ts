import * as assert from 'node:assert/strict';
import { classifyToolCall } from '../../../src/engine/ledger/toolActivity';
import { ERROR_SUMMARY_MAX_CHARS } from '../../../src/engine/ledger/errorSummary';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { message, toolCallBlock, toolResultBlock, type Message } from '../../../src/engine/types';
import { call, result, user } from '../support/builders';

const T0 = Date.UTC(2026, 0, 21, 10, 0, 0);
const at = (msg: Message, minute: number): Message => ({ ...msg, at: T0 + minute * 60_000 });

describe('tool record', () => {
  it('records a read, a failed command, an edit and the same command succeeding, and marks the error fixed', () => {
    const record = recordToolActivity([
      at(call('c1', 'Read', { file_path: 'src/parser.ts' }), 1),
      at(result('c1', '     1→export function parse() {}'), 1),
      at(call('c2', 'Bash', { command: 'npm test', description: 'Run tests' }), 2),
      at(
        result(
          'c2',
          'Exit code 1\n\n> ctx@1.0.0 test\nFAIL test/parser.test.ts\n  ● parse › throws on empty input\nError: expected throw',
          true,
        ),
        2,
      ),
      at(call('c3', 'Edit', { file_path: 'src/parser.ts', old_string: 'parse() {}', new_string: 'parse() { throw new Error(); }' }), 3),
      at(result('c3', 'The file src/parser.ts has been updated successfully.'), 3),
      at(call('c4', 'Bash', { command: 'npm test 2>&1 | tail -20' }), 4),
      at(result('c4', 'Tests: 12 passed, 12 total'), 4),
    ]);
    assert.deepEqual(record.files, [{ path: 'src/parser.ts', actions: ['read', 'edited'], lastAt: T0 + 3 * 60_000, lastCallId: 'c3' }]);
    assert.deepEqual(
      record.commands.map((c) => [c.callId, c.command, c.exitCode, c.ok]),
      [
        ['c2', 'npm test', 1, false],
        ['c4', 'npm test 2>&1 | tail -20', undefined, true],
      ],
    );
    assert.equal(record.errors.length, 1);
    assert.deepEqual(record.errors[0], {
      callId: 'c2',
      toolName: 'Bash',
      summary: 'FAIL test/parser.test.ts',
      subject: 'npm test',
      at: T0 + 2 * 60_000,
      fixed: true,
      fixedByCallId: 'c4',
      fixedBy: 'npm test 2>&1 | tail -20',
    });
  });

  it('records a search that worked by what it looked for and what it found, and a call that looks for nothing not at all', () => {
    const record = recordToolActivity([
      at(call('g1', 'Grep', { pattern: 'retry_after', path: 'lib/shop' }), 1),
      at(result('g1', 'lib/shop/rate_limit_plug.ex:14:  retry_after = 30\nlib/shop/limiter.ex:3:  @retry_after 60'), 1),
      at(call('w1', 'web_fetch', { url: 'https://hexdocs.pm/plug/Plug.Conn.html', prompt: 'Which header sets the delay?' }), 2),
      at(result('w1', 'Plug.Conn.put_resp_header/3 sets a response header.'), 2),
      at(call('t1', 'TodoWrite', { todos: [{ content: 'Add the header', status: 'pending' }] }), 3),
      at(result('t1', 'Todos have been modified successfully.'), 3),
    ]);
    assert.deepEqual(
      record.commands.map((c) => [c.command, c.ok, c.output]),
      [
        [
          'Grep retry_after in lib/shop',
          true,
          'lib/shop/rate_limit_plug.ex:14:  retry_after = 30 … lib/shop/limiter.ex:3:  @retry_after 60',
        ],
        ['web_fetch https://hexdocs.pm/plug/Plug.Conn.html', true, 'Plug.Conn.put_resp_header/3 sets a response header.'],
      ],
    );
  });

  it('leaves an error unfixed when a different command succeeds or the same one fails again', () => {
    const record = recordToolActivity([
      call('c1', 'Bash', { command: 'make build' }),
      result('c1', 'Exit code 2\nmake: *** [Makefile:12: build] Error 2', true),
      call('c2', 'Bash', { command: 'make clean' }),
      result('c2', ''),
      call('c3', 'Bash', { command: 'make build' }),
      result('c3', 'Exit code 2\nmake: *** [Makefile:12: build] Error 2', true),
    ]);
    assert.deepEqual(
      record.errors.map((e) => [e.callId, e.summary, e.fixed]),
      [
        ['c1', 'make: *** [Makefile:12: build] Error 2', false],
        ['c3', 'make: *** [Makefile:12: build] Error 2', false],
      ],
    );
  });

  it('gives one verdict to an error that several calls met: fixed wherever it was met, when its message names its place', () => {
    const typeError = "src/cart/total.ts(28,2): error TS2739: Type '{ sum: number; }' is missing the following properties";
    const record = recordToolActivity([
      call('c1', 'Bash', { command: 'npx tsc --noEmit' }),
      result('c1', `Exit code 2\n${typeError}`, true),
      call('c2', 'Bash', { command: 'npm run check' }),
      result('c2', `Exit code 2\n${typeError}`, true),
      call('c3', 'Bash', { command: 'npm run lint' }),
      result('c3', 'Exit code 1\nnpm ERR! code ELIFECYCLE', true),
      call('c4', 'Bash', { command: 'npm run deploy' }),
      result('c4', 'Exit code 1\nnpm ERR! code ELIFECYCLE', true),
      call('c5', 'Edit', { file_path: 'src/cart/total.ts', old_string: 'a', new_string: 'b' }),
      result('c5', 'The file src/cart/total.ts has been updated.'),
      call('c6', 'Bash', { command: 'npm run check' }),
      result('c6', 'Checked 12 files'),
      call('c7', 'Bash', { command: 'npm run lint' }),
      result('c7', 'All files pass'),
    ]);
    assert.deepEqual(
      record.errors.map((e) => [e.callId, e.fixed, e.fixedByCallId]),
      [
        ['c1', true, 'c6'],
        ['c2', true, 'c6'],
        ['c3', true, 'c7'],
        // The same words name no place: another command's failure, which may have another cause, stays open.
        ['c4', false, undefined],
      ],
    );
  });

  it('fixes a file error with a later successful write or edit of the same path, and a failed read with a read too', () => {
    const record = recordToolActivity([
      call('c1', 'Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }),
      result('c1', '<tool_use_error>Old text matches no line of the file.\nString: x</tool_use_error>', true),
      call('c2', 'Read', { file_path: 'b.ts' }),
      result('c2', '<tool_use_error>No file at that path.</tool_use_error>', true),
      call('c3', 'Read', { file_path: 'a.ts' }),
      result('c3', '1→y'),
      call('c4', 'Write', { file_path: 'b.ts', content: 'new' }),
      result('c4', 'File created successfully at: b.ts'),
      call('c5', 'Read', { file_path: 'c.ts' }),
      result('c5', '<tool_use_error>No file at that path.</tool_use_error>', true),
    ]);
    const later = recordToolActivity([call('c6', 'Read', { file_path: 'c.ts' }), result('c6', '1→z')], record);
    assert.deepEqual(
      later.errors.map((e) => [e.subject, e.summary, e.fixed, e.fixedByCallId]),
      [
        ['a.ts', '<tool_use_error>Old text matches no line of the file.', false, undefined],
        ['b.ts', '<tool_use_error>No file at that path.</tool_use_error>', true, 'c4'],
        ['c.ts', '<tool_use_error>No file at that path.</tool_use_error>', true, 'c6'],
      ],
      'a read changes nothing in a file, so it fixes no edit; in a later batch a failed read still waits for a read',
    );
    assert.deepEqual(
      record.files.map((f) => [f.path, f.actions]),
      [
        ['a.ts', ['read']],
        ['b.ts', ['created']],
      ],
    );
  });

  it('keeps each path once with its actions accumulated, and calls a write to a known file an edit', () => {
    const record = recordToolActivity([
      call('c1', 'Write', { file_path: 'n.ts', content: 'a' }),
      result('c1', 'File created successfully at: n.ts'),
      call('c2', 'Read', { file_path: 'n.ts' }),
      result('c2', '1→a'),
      call('c3', 'Write', { file_path: 'n.ts', content: 'b' }),
      result('c3', 'ok'),
      call('c4', 'Read', { file_path: 'n.ts' }),
      result('c4', '1→b'),
      call('c5', 'delete_file', { path: 'n.ts' }),
      result('c5', 'deleted'),
    ]);
    assert.equal(record.files.length, 1);
    assert.deepEqual(record.files[0].actions, ['created', 'read', 'edited', 'deleted']);
    assert.equal(record.files[0].lastCallId, 'c5');
  });

  it('records an error for a result whose call is unknown, and nothing for a successful one', () => {
    const record = recordToolActivity([
      message('t1', 'tool', [toolResultBlock('lost', 'permission denied: /etc/shadow', true, 'Read')]),
      message('t2', 'tool', [toolResultBlock('lost2', 'fine')]),
    ]);
    assert.deepEqual(
      record.errors.map((e) => [e.callId, e.toolName, e.summary, e.subject]),
      [['lost', 'Read', 'permission denied: /etc/shadow', undefined]],
    );
    assert.equal(record.commands.length + record.files.length, 0);
  });

  it('finds calls of earlier batches through findCall, and fixes errors kept in the base record', () => {
    const first = recordToolActivity([
      call('c1', 'Bash', { command: 'cargo build' }),
      result('c1', 'Exit code 101\nerror[E0308]: mismatched types', true),
    ]);
    const earlier = toolCallBlock('c2', 'Bash', { command: 'cargo  build' });
    const second = recordToolActivity([result('c2', 'Finished dev profile')], first, (id) => (id === 'c2' ? earlier : undefined), T0);
    assert.deepEqual(
      second.errors.map((e) => [e.summary, e.fixed, e.fixedByCallId]),
      [['error[E0308]: mismatched types', true, 'c2']],
    );
    assert.equal(second.commands[1].at, T0);
    assert.equal(first.errors[0].fixed, false);
  });

  it('does not count a result twice when the same messages are recorded again', () => {
    const batch = [call('c1', 'Bash', { command: 'false' }), result('c1', 'Exit code 1', true)];
    const once = recordToolActivity(batch);
    const twice = recordToolActivity(batch, once);
    assert.equal(twice.commands.length, 1);
    assert.equal(twice.errors.length, 1);
  });

  it('gives the same record back for messages without tool results, and keeps each list no result changed', () => {
    const base = recordToolActivity([
      call('c1', 'Bash', { command: 'npm test' }),
      result('c1', 'Exit code 1\nFAIL parser', true),
      call('r1', 'Read', { file_path: 'src/parser.ts' }),
      result('r1', 'export const parse = 1;'),
    ]);
    assert.equal(recordToolActivity([user('Keep going.')], base), base);
    assert.equal(recordToolActivity([call('c1', 'Bash', { command: 'npm test' }), result('c1', 'Exit code 1', true)], base), base);
    const afterRead = recordToolActivity([call('r2', 'Read', { file_path: 'src/lexer.ts' }), result('r2', 'export const lex = 1;')], base);
    assert.deepEqual(
      afterRead.files.map((f) => f.path),
      ['src/parser.ts', 'src/lexer.ts'],
    );
    assert.equal(afterRead.commands, base.commands);
    assert.equal(afterRead.errors, base.errors);
    const afterFix = recordToolActivity([call('c2', 'Bash', { command: 'npm test' }), result('c2', 'Tests: 12 passed')], base);
    assert.equal(afterFix.files, base.files);
    assert.deepEqual(
      afterFix.errors.map((e) => [e.fixed, e.fixedByCallId]),
      [[true, 'c2']],
    );
    assert.equal(base.errors[0].fixed, false, 'the base record is left as it was');
  });

  it('shortens an error summary to the length of a fact, and says so', () => {
    const record = recordToolActivity([call('c1', 'Bash', { command: 'x' }), result('c1', `Error: ${'y'.repeat(1000)}`, true)]);
    assert.ok(record.errors[0].summary.length <= ERROR_SUMMARY_MAX_CHARS);
    assert.ok(record.errors[0].summary.endsWith('…'));
  });

  it("records a call of one session whose id another session's call had, and only its own", () => {
    const first = recordToolActivity([call('t1', 'web_search', { query: 'station ids' }), result('t1', '3 pages found')]);
    assert.deepEqual(
      first.commands.map((c) => c.command),
      ['web_search station ids'],
    );
    const second = recordToolActivity([call('t1', 'bash', { command: 'make check' }), result('t1', 'all checks passed')]);
    assert.deepEqual(
      second.commands.map((c) => c.command),
      ['make check'],
    );
  });
});

describe('tool activity', () => {
  const classify = (name: string, input: Record<string, unknown>, content?: string) =>
    classifyToolCall(toolCallBlock('c', name, input), content === undefined ? undefined : toolResultBlock('c', content));

  it('reads the OpenHands str_replace_editor sub-commands', () => {
    assert.deepEqual(classify('str_replace_editor', { command: 'view', path: '/w/a.c' }), {
      kind: 'file',
      action: 'read',
      paths: ['/w/a.c'],
    });
    assert.deepEqual(classify('str_replace_editor', { command: 'create', path: '/w/b.c', file_text: '' }), {
      kind: 'file',
      action: 'created',
      paths: ['/w/b.c'],
    });
    assert.deepEqual(classify('str_replace_editor', { command: 'str_replace', path: '/w/a.c', old_str: 'a', new_str: 'b' }), {
      kind: 'file',
      action: 'edited',
      paths: ['/w/a.c'],
    });
    assert.deepEqual(classify('str_replace_based_edit_tool', { command: 'insert', path: '/w/a.c', insert_line: 3 }), {
      kind: 'file',
      action: 'edited',
      paths: ['/w/a.c'],
    });
    assert.deepEqual(classify('str_replace_editor', { command: 'undo_edit', path: '/w/a.c' }), {
      kind: 'file',
      action: 'edited',
      paths: ['/w/a.c'],
    });
  });

  it('reads tool names of Claude Code, Copilot, Cline, SWE-agent and mini-swe-agent', () => {
    assert.deepEqual(classify('Read', { file_path: '/p/a.ex' }), { kind: 'file', action: 'read', paths: ['/p/a.ex'] });
    assert.deepEqual(classify('MultiEdit', { file_path: 'a', edits: [] }), { kind: 'file', action: 'edited', paths: ['a'] });
    assert.deepEqual(classify('NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'x' }), {
      kind: 'file',
      action: 'edited',
      paths: ['n.ipynb'],
    });
    assert.deepEqual(classify('read_file', { filePath: 'a.ts', startLine: 1 }), { kind: 'file', action: 'read', paths: ['a.ts'] });
    assert.deepEqual(classify('replace_string_in_file', { filePath: 'a.ts', oldString: 'x', newString: 'y' }), {
      kind: 'file',
      action: 'edited',
      paths: ['a.ts'],
    });
    assert.deepEqual(classify('apply_patch', { path: 'a.ts', patch: '' }), { kind: 'file', action: 'edited', paths: ['a.ts'] });
    assert.deepEqual(classify('run_in_terminal', { command: 'npm test', explanation: '' }), { kind: 'command', commands: ['npm test'] });
    assert.deepEqual(classify('read_files', { files: [{ path: 'a.tsx', start_line: 1 }, { path: 'b.tsx' }] }), {
      kind: 'file',
      action: 'read',
      paths: ['a.tsx', 'b.tsx'],
    });
    assert.deepEqual(classify('editor', { path: 'a.tsx', old_text: 'a', new_text: 'b' }), {
      kind: 'file',
      action: 'edited',
      paths: ['a.tsx'],
    });
    assert.deepEqual(classify('run_commands', { commands: ['grep -rn x src', 'ls'] }), {
      kind: 'command',
      commands: ['grep -rn x src', 'ls'],
    });
    assert.deepEqual(classify('execute_bash', { command: 'make' }), { kind: 'command', commands: ['make'] });
    assert.deepEqual(classify('shell', { command: ['bash', '-lc', 'ls -la'] }), { kind: 'command', commands: ['ls -la'] });
    assert.deepEqual(classify('bash', { cmd: 'ls' }), { kind: 'command', commands: ['ls'] });
    assert.deepEqual(classify('open', { path: 'setup.py' }), { kind: 'file', action: 'read', paths: ['setup.py'] });
    assert.deepEqual(classify('create', { filename: 'reproduce.py' }), { kind: 'file', action: 'created', paths: ['reproduce.py'] });
  });

  it('records as failed a command whose host stated no status but whose program died of an uncaught exception', () => {
    // As SWE-agent gives a command's output: no exit status, no error flag.
    const record = recordToolActivity([
      at(call('c1', 'bash', { command: 'python tools/import_rates.py data/rates.csv' }), 1),
      at(
        result(
          'c1',
          [
            'Traceback (most recent call last):',
            '  File "tools/import_rates.py", line 37, in main',
            '    rate = int(row["bps"])',
            "ValueError: invalid literal for int() with base 10: '12.5'",
          ].join('\n'),
        ),
        1,
      ),
    ]);
    assert.deepEqual(
      record.commands.map((c) => [c.command, c.ok]),
      [['python tools/import_rates.py data/rates.csv', false]],
    );
    assert.deepEqual(
      record.errors.map((e) => e.summary),
      ["ValueError: invalid literal for int() with base 10: '12.5'"],
    );
  });

  it('takes the file of SWE-agent edit and insert commands from their result', () => {
    const out = '[File: /testbed/reproduce.py (10 lines total)]\r\n1:\r\n2:from marshmallow.fields import TimeDelta';
    assert.deepEqual(classify('insert', { text: 'x' }, out), { kind: 'file', action: 'edited', paths: ['/testbed/reproduce.py'] });
    assert.deepEqual(classify('edit', { search: 'a', replace: 'b' }), { kind: 'other' });
  });

  it('calls a write that replaced a file an edit when its result says so', () => {
    assert.deepEqual(classify('Write', { file_path: 'a', content: '' }, 'The file a has been updated successfully.'), {
      kind: 'file',
      action: 'edited',
      paths: ['a'],
    });
  });

  it('reads the files of a patch from its own headers: a patch tool, its patch on the command line, a unified diff', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/loans/due.ts',
      '@@',
      '-const GRACE_DAYS = 0;',
      '+const GRACE_DAYS = 2;',
      '*** Add File: src/loans/grace.ts',
      '+export const graceFor = (days: number) => days + 2;',
      '*** Delete File: src/loans/legacy.ts',
      '*** End Patch',
    ].join('\n');
    const files = ['src/loans/due.ts', 'src/loans/grace.ts', 'src/loans/legacy.ts'];
    const each = { kind: 'file', action: 'edited', paths: files, pathActions: ['edited', 'created', 'deleted'] };
    assert.deepEqual(classify('apply_patch', { input: patch }), each);
    assert.deepEqual(classify('apply_patch', { patchText: patch }), each);
    assert.deepEqual(classify('exec_command', { cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }), each);
    const added = '*** Begin Patch\n*** Add File: docs/loans.md\n+# Loans\n*** End Patch';
    assert.deepEqual(classify('apply_patch', { input: added }), { kind: 'file', action: 'created', paths: ['docs/loans.md'] });
    const diff =
      '--- a/src/fines.py\n+++ b/src/fines.py\n@@ -1 +1 @@\n-RATE = 10\n+RATE = 25\n--- a/src/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x = 1';
    assert.deepEqual(classify('patch_file', { diff }), {
      kind: 'file',
      action: 'edited',
      paths: ['src/fines.py', 'src/old.py'],
      pathActions: ['edited', 'deleted'],
    });
    assert.deepEqual(classify('bash', { command: 'cat notes.txt' }), { kind: 'command', commands: ['cat notes.txt'] });
    assert.deepEqual(classify('apply_patch', { input: 'no patch here' }), { kind: 'other' });
  });

  it("records a patched file's edit in the ledger and its first added line as what the file holds now", () => {
    const patch = '*** Begin Patch\n*** Update File: src/loans/due.ts\n@@\n-const GRACE_DAYS = 0;\n+const GRACE_DAYS = 2;\n*** End Patch';
    const record = recordToolActivity([
      call('p1', 'apply_patch', { input: patch }),
      result('p1', 'Success. Updated the following files:\nM src/loans/due.ts'),
    ]);
    assert.deepEqual(
      record.files.map((f) => [f.path, f.actions]),
      [['src/loans/due.ts', ['edited']]],
    );
    const mixed =
      '*** Begin Patch\n*** Add File: src/loans/grace.ts\n+export const GRACE = 2;\n*** Delete File: src/loans/legacy.ts\n*** End Patch';
    const each = recordToolActivity([call('p2', 'apply_patch', { input: mixed }), result('p2', 'Success.')]);
    assert.deepEqual(
      each.files.map((f) => [f.path, f.actions]),
      [
        ['src/loans/grace.ts', ['created']],
        ['src/loans/legacy.ts', ['deleted']],
      ],
      'each file as the patch treated it',
    );
    const facts = extractFacts([
      user('Give loans two days of grace.'),
      call('p1', 'apply_patch', { input: patch }),
      result('p1', 'Success.'),
    ]);
    assert.ok(
      facts.some((f) => f.text === 'Now in due.ts: const GRACE_DAYS = 2;'),
      facts.map((f) => f.text).join('\n'),
    );
  });

  it('reads the files of a list of changes that each name their own file', () => {
    const replacements = [
      { filePath: 'src/loans/due.ts', oldString: 'GRACE_DAYS = 0', newString: 'GRACE_DAYS = 2' },
      { filePath: 'src/loans/fees.ts', oldString: 'FEE = 1', newString: 'FEE = 2' },
    ];
    assert.deepEqual(classify('multi_replace_string_in_file', { explanation: 'Two days of grace', replacements }), {
      kind: 'file',
      action: 'edited',
      paths: ['src/loans/due.ts', 'src/loans/fees.ts'],
    });
  });

  it('records a file a command wrote from a here-document, though the script it then ran failed, unless the failure names it', () => {
    const record = recordToolActivity([
      call('c1', 'bash', {
        command: "cat > /repo/repro.py <<'EOF'\nfrom loans import grace\nprint(grace.days(None))\nEOF\npython /repo/repro.py",
      }),
      result('c1', 'Traceback (most recent call last):\nTypeError: member is None\nExit code: 1'),
      call('c2', 'bash', { command: "cat > /etc/loans.conf <<'EOF'\ngrace=2\nEOF" }),
      result('c2', 'bash: /etc/loans.conf: Permission denied\nExit code: 1'),
      call('c3', 'bash', { command: "cat >> /repo/NOTES.md <<'EOF'\n- grace is two days\nEOF" }),
      result('c3', ''),
    ]);
    assert.deepEqual(
      record.files.map((f) => [f.path, f.actions]),
      [
        ['/repo/repro.py', ['created']],
        ['/repo/NOTES.md', ['edited']],
      ],
    );
    assert.equal(record.commands.length, 3, 'each stays a command');
  });

  it('leaves tools without a path or command as other', () => {
    assert.deepEqual(classify('TodoWrite', { todos: [] }), { kind: 'other' });
    assert.deepEqual(classify('BashOutput', { bash_id: '1' }), { kind: 'other' });
    assert.deepEqual(classify('Glob', { pattern: '**/*.ts', path: 'src' }), { kind: 'other' });
    assert.deepEqual(classify('think', { thought: 'read the file a.ts' }), { kind: 'other' });
  });
});
