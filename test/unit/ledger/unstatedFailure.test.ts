import * as assert from 'node:assert/strict';
import { endsInFailure } from '../../../src/engine/ledger/unstatedFailure';
import { isFailingTally } from '../../../src/engine/ledger/testTally';

describe('an output whose host stated no exit status', () => {
  it("ends in failure with a test tally that counts failures, or with the program's own error line", () => {
    assert.ok(endsInFailure('F.\ntests/test_convert.py:9: AssertionError\n1 failed, 1 passed in 0.04s\n'));
    assert.ok(endsInFailure('..E\nFAILED (errors=1)'));
    assert.ok(
      endsInFailure(
        '   Compiling ledger v0.4.0\nerror[E0382]: borrow of moved value: `cfg`\nerror: could not compile `ledger` due to 1 previous error',
      ),
    );
    assert.ok(endsInFailure('Traceback (most recent call last):\n  File "a.py", line 3, in <module>\nKeyError: \'bps\''));
  });

  it('ends in failure when the shell says last that it could not run a command, or a parser names its error', () => {
    assert.ok(endsInFailure('Starting the worker\n/bin/bash: line 4: gradle: command not found'));
    assert.ok(endsInFailure('(eval):1: no matches found: logs/*.trace'));
    assert.ok(endsInFailure('sh: 1: yarnpkg: not found'));
    assert.ok(endsInFailure('zsh: command not found: pnpx'));
    assert.ok(endsInFailure('scripts/seed.sh: line 12: cd: fixtures: Not a directory'));
    assert.ok(endsInFailure('usage: report.py [-h] [--since SINCE]\nreport.py: error: argument --since: invalid date'));
    // `tsc --noEmit | head -3`: the compiler's errors, and the shell's success for head.
    assert.ok(
      endsInFailure(
        "src/cart.ts(41,3): error TS2304: Cannot find name 'total'.\nsrc/cart.ts(52,9): error TS2339: Property 'sum' does not exist.",
      ),
    );
    assert.ok(endsInFailure('lib/ledger.c:12:5: error: unknown type name ‘money_t’'));
  });

  it("does not end in failure with the shell's warning or a line that only starts with a shell's name", () => {
    assert.ok(!endsInFailure('bash: warning: setlocale: LC_ALL: cannot change locale (en_US.UTF-8)'));
    assert.ok(
      !endsInFailure('bash: cannot set terminal process group (-1): Inappropriate ioctl for device\nbash: no job control in this shell'),
    );
    assert.ok(!endsInFailure('shell: bash'));
    assert.ok(!endsInFailure('ssh: connected to build-7'));
  });

  it('does not end in failure with a passing tally, a line that merely names an error, or a lint line read back from a file', () => {
    assert.ok(!endsInFailure('12 passed in 0.31s'));
    assert.ok(!endsInFailure('Build finished with 0 errors.'));
    assert.ok(!endsInFailure('docs/setup.md:12 error MD041/first-line-heading First line in a file should be a top level heading'));
    assert.ok(!endsInFailure('Found the error handler in src/errors.ts'));
  });
});

describe('a test tally', () => {
  it('counts failures as runners print them, not as a place in a file', () => {
    assert.ok(isFailingTally('Tests: 1 failed, 12 passed, 13 total'));
    assert.ok(isFailingTally('test result: FAILED. 3 passed; 1 failed; 0 ignored'));
    assert.ok(!isFailingTally('Tests: 13 passed, 13 total'));
    assert.ok(!isFailingTally('docs/guide.md:41:9 error MD009/no-trailing-spaces'));
  });
});
