import * as assert from 'node:assert/strict';
import { filesOnlyPrinted } from '../../../src/engine/ledger/shellReads';

describe('a command line that only prints lines of files', () => {
  it('names the files that cat, sed -n, head, tail and nl print, through filters that choose lines, after a cd', () => {
    const cases: [string, string[]][] = [
      ['cat src/app.ts', ['src/app.ts']],
      ["sed -n '520,585p' packages/core/src/evaluate.ts", ['packages/core/src/evaluate.ts']],
      ["nl -ba src/grader.ts | sed -n '73,97p'", ['src/grader.ts']],
      ['head -n 50 a.ts b.ts', ['a.ts', 'b.ts']],
      ['tail -20 build.log', ['build.log']],
      ['cd /repo && sed -n 1,40p src/x.py', ['src/x.py']],
      ['head -20 README.md 2>/dev/null', ['README.md']],
      ['cat -n "docs/My Notes.md" | head -40', ['docs/My Notes.md']],
    ];
    for (const [command, files] of cases) assert.deepEqual(filesOnlyPrinted(command), files, command);
  });

  it("names the files PowerShell's Get-Content prints, in any case and through Select-Object's choice of lines", () => {
    const cases: [string, string[]][] = [
      ['Get-Content -Path "C:\\work\\shop\\src\\cart.ts"', ['C:\\work\\shop\\src\\cart.ts']],
      ['get-content src/cart.ts | Select-Object -First 80', ['src/cart.ts']],
      ['gc -Raw README.md', ['README.md']],
      ['Get-Content -LiteralPath notes.md -TotalCount 40 -Encoding utf8', ['notes.md']],
    ];
    for (const [command, files] of cases) assert.deepEqual(filesOnlyPrinted(command), files, command);
  });

  it('names none when the line does anything else: follows, writes, searches, edits, expands or globs', () => {
    for (const command of [
      'tail -f server.log',
      'cat a.ts > b.ts',
      'cat src/*.ts',
      'grep -n foo a.ts',
      'cat a.ts | grep foo',
      'cat "$HOME/notes.md"',
      'sed -i s/a/b/ x.ts',
      "sed -n '1,20p'",
      'cat a.ts; rm a.ts',
      'npm test',
      'cat',
      'Get-Content -Wait server.log',
      'Get-Content app.log | Select-String "timeout"',
      'Get-Content a.ts | Select-Object -Property Length',
      'Get-ChildItem -Force',
    ]) {
      assert.deepEqual(filesOnlyPrinted(command), [], command);
    }
  });
});
