import * as assert from 'node:assert/strict';
import { commandOutcome } from '../../../src/engine/ledger/commandOutcome';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { toolResultBlock } from '../../../src/engine/types';
import { call, result } from '../support/builders';

const ran = (command: string, content: string, isError = false) => commandOutcome(toolResultBlock('c', content, isError), [command]);

describe('how a command ended, by what its program means by its status', () => {
  it('takes a search that exits with 1 having printed nothing as one that found nothing, in the forms hosts print it', () => {
    assert.equal(ran('grep -n "def as_set" sympy/core/relational.py', '<returncode>1</returncode>\n<output>\n</output>').ok, true);
    assert.equal(ran('grep "borderColor" src/editor.ts', 'Command exited with code 1').ok, true);
    assert.equal(ran('cd /repo && rg -n "retry_after" lib/', 'Exit code 1', true).ok, true);
    assert.equal(ran('ls -R sklearn/linear_model | grep Ridge', 'Error: Exit code 1', true).ok, true);
    assert.equal(ran('git grep -n "TODO(v2)"', '(no output)\n\nCommand exited with code 1').ok, true);
    assert.equal(ran('grep -c "flaky" test/log.txt', '0\n\nCommand exited with code 1').ok, true);
    // The `\|` of a pattern is not a pipe: the last command is still the search.
    assert.equal(ran('grep -A 5 "Detected truecolor\\|No COLORFGBG" src/theme.ts', 'Command exited with code 1').ok, true);
    assert.equal(ran('LC_ALL=C grep -q needle haystack.txt', 'Exit code 1', true).ok, true);
  });

  it("reads Windows' findstr as a search, and a host's record whose output and error fields are empty as nothing printed", () => {
    const record = (error: string) =>
      ['Command: tasklist | findstr Updater.exe', 'Directory: (root)', 'Output: (empty)', `Error: ${error}`, 'Exit Code: 1'].join('\n');
    assert.equal(ran('tasklist | findstr Updater.exe', record('(none)')).ok, true);
    assert.equal(ran('tasklist | FINDSTR /I updater', 'Exit code 1', true).ok, true);
    assert.equal(ran('tasklist | findstr Updater.exe', record('FINDSTR: Bad command line')).ok, false, 'an error field with text');
    assert.equal(ran('python check.py', record('(none)')).ok, false, 'not a search');
  });

  it('keeps a failed search failed: an error status, an error printed, or a search that is not the last command', () => {
    assert.deepEqual(ran('grep -A 3 "x" src/wrap.ts', 'grep: src/wrap.ts: Permission denied\n\nCommand exited with code 2'), {
      ok: false,
      exitCode: 2,
    });
    assert.equal(ran('grep -r "x" missing/', 'grep: missing/: Permission denied\nCommand exited with code 1').ok, false);
    assert.equal(ran('grep -n "x" a.py | head -5 && make', 'Command exited with code 1').ok, false);
    assert.equal(ran('python check.py', 'Command exited with code 1').ok, false);
    assert.equal(ran('echo grep', 'Command exited with code 1').ok, false);
  });

  it('files no error in the ledger for a search that found nothing, and keeps the command with its status', () => {
    const record = recordToolActivity([
      call('g1', 'bash', { command: 'grep -n "def as_set" sympy/core/relational.py' }),
      result('g1', '<returncode>1</returncode>\n<output>\n</output>'),
      call('g2', 'bash', { command: 'grep -n "x" missing.py' }),
      result('g2', 'grep: missing.py: Permission denied\n<returncode>2</returncode>'),
    ]);
    assert.deepEqual(
      record.errors.map((e) => e.summary),
      ['grep: missing.py: Permission denied'],
    );
    assert.deepEqual(
      record.commands.map((c) => [c.ok, c.exitCode]),
      [
        [true, 1],
        [false, 2],
      ],
    );
  });

  it('takes a comparison that exits with 1 as one that found a difference, whatever it printed, and trouble as a failure', () => {
    const stat = ' config/app.yaml | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)\nCommand exited with code 1';
    assert.equal(ran('git diff --no-index --stat config/app.yaml.orig config/app.yaml', stat).ok, true);
    assert.equal(
      ran('diff -u expected.txt actual.txt', '--- expected.txt\n+++ actual.txt\n@@ -1 +1 @@\n-42\n+41\nExit code 1', true).ok,
      true,
    );
    assert.equal(
      ran('cd build && cmp out.bin golden.bin', 'out.bin golden.bin differ: byte 9, line 1\nCommand exited with code 1').ok,
      true,
    );
    assert.equal(
      ran('git diff --exit-code -- src/schema.sql', 'diff --git a/src/schema.sql b/src/schema.sql\n<returncode>1</returncode>').ok,
      true,
    );
    assert.equal(ran('diff a.txt missing.txt', 'diff: missing.txt: Permission denied\nCommand exited with code 2').ok, false);
    // Without an option that makes it exit 1 on a difference, `git diff` failing with 1 failed.
    assert.equal(ran('git diff HEAD~1 -- src/', 'fatal: bad revision\nCommand exited with code 1').ok, false);
    assert.equal(ran('diff a.txt b.txt && make test', 'Command exited with code 1').ok, false);
  });

  it('files no error in the ledger for a comparison that found a difference', () => {
    const record = recordToolActivity([
      call('d1', 'exec_command', { cmd: 'git diff --no-index --stat /dev/null docs/guide.md' }),
      result('d1', ' docs/guide.md | 12 ++++++++++++\n 1 file changed, 12 insertions(+)\nCommand exited with code 1'),
    ]);
    assert.deepEqual(record.errors, []);
    assert.deepEqual(
      record.commands.map((c) => [c.ok, c.exitCode]),
      [[true, 1]],
    );
  });
});
