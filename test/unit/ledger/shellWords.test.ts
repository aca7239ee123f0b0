import * as assert from 'node:assert/strict';
import { isShellOperator, lastCommandWords, shellWords } from '../../../src/engine/ledger/shellWords';

describe('a command line read as words', () => {
  it("keeps quoted words whole, so a quoted separator or a pattern's \\| is no operator", () => {
    assert.deepEqual(shellWords(`grep -n "a;b" 'x\\|y' src/due.py`), ['grep', '-n', '"a;b"', `'x\\|y'`, 'src/due.py']);
  });

  it('splits commands at &&, ||, ;, | and a line break', () => {
    const words = shellWords('cd /repo && make || echo failed; ls | wc -l\npwd');
    assert.deepEqual(words.filter(isShellOperator), ['&&', '||', ';', '|', '\n']);
    assert.equal(isShellOperator('make'), false);
  });

  it("gives the last command of a line, whose status is the line's", () => {
    assert.deepEqual(lastCommandWords('cd /repo && LC_ALL=C grep -rn "needle" src'), ['LC_ALL=C', 'grep', '-rn', '"needle"', 'src']);
    assert.deepEqual(lastCommandWords('make\nrg "x|y" lib'), ['rg', '"x|y"', 'lib']);
    assert.deepEqual(lastCommandWords(''), []);
  });
});
