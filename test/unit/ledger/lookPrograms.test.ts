import * as assert from 'node:assert/strict';
import { onlyLooks } from '../../../src/engine/ledger/lookPrograms';

describe('a command line that only looks', () => {
  it('is a look when every command lists, searches, prints or shows the repository, errors sent away', () => {
    for (const line of [
      'ls -la src',
      'grep -rn "retry_after" src | head -20',
      'cd /repo && find . -name "*.py" -not -path "./.venv/*" | wc -l',
      'rg --files-with-matches parseDuration 2>/dev/null',
      'git status --short && git log --oneline -5',
      'git diff HEAD~1 -- src/app.ts',
      "sed -n '40,80p' src/app.ts; tail -5 build.log",
      'LC_ALL=C sort notes.txt | uniq -c',
    ]) {
      assert.equal(onlyLooks([line]), true, line);
    }
  });

  it('is no look when a command acts: a redirect, an in-place edit, a find that deletes or runs, a program not listed', () => {
    for (const line of [
      'grep -rn foo src > hits.txt',
      "sed -i 's/a/b/' src/app.ts",
      'find . -name "*.pyc" -delete',
      'find . -name "*.log" -exec rm {} \\;',
      'sort -o notes.txt notes.txt',
      'git commit -am "Fix parse"',
      'git checkout -b fix-parse',
      'ls && npm test',
      'python check_dates.py',
      'cat <<EOF > check.py',
      '',
    ]) {
      assert.equal(onlyLooks([line]), false, line);
    }
    assert.equal(onlyLooks([]), false, 'no command is no look');
    assert.equal(onlyLooks(['ls src', 'npm run build']), false, 'one line that acts makes the call act');
  });

  it('reads a quoted ">" as part of a pattern, not as a redirect', () => {
    assert.equal(onlyLooks(['grep -n "=>" src/app.ts']), true);
  });
});
