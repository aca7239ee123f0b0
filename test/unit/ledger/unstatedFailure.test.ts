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
