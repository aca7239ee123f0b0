import * as assert from 'node:assert/strict';
import { matchesGlob, splitGlobList } from '../../../src/engine/ledger/pathGlob';

describe('path globs of applyTo', () => {
  it('lets ** stand for any number of folders, none included', () => {
    assert.equal(matchesGlob('a.ts', '**/*.ts'), true);
    assert.equal(matchesGlob('src/deep/er/a.ts', '**/*.ts'), true);
    assert.equal(matchesGlob('/home/dev/project/src/a.ts', '**/*.ts'), true);
    assert.equal(matchesGlob('src/a.tsx', '**/*.ts'), false);
    assert.equal(matchesGlob('docs/guide/intro.md', 'docs/**'), true);
    assert.equal(matchesGlob('src/docs/intro.md', 'docs/**'), false);
  });

  it('keeps * and ? inside one name', () => {
    assert.equal(matchesGlob('src/a.ts', '*.ts'), false);
    assert.equal(matchesGlob('a.ts', '*.ts'), true);
    assert.equal(matchesGlob('v1.md', 'v?.md'), true);
    assert.equal(matchesGlob('v10.md', 'v?.md'), false);
  });

  it('reads braces as alternatives and brackets as character classes', () => {
    assert.equal(matchesGlob('src/App.tsx', '**/*.{ts,tsx}'), true);
    assert.equal(matchesGlob('src/App.js', '**/*.{ts,tsx}'), false);
    assert.equal(matchesGlob('test1.py', 'test[0-9].py'), true);
    assert.equal(matchesGlob('testa.py', 'test[!0-9].py'), true);
    assert.equal(matchesGlob('test1.py', 'test[!0-9].py'), false);
  });

  it('ignores case and reads backslashes as slashes', () => {
    assert.equal(matchesGlob('SRC\\Parser.TS', 'src/*.ts'), true);
  });

  it('treats other characters literally, and an unclosed brace as a brace', () => {
    assert.equal(matchesGlob('a+b.md', 'a+b.md'), true);
    assert.equal(matchesGlob('aab.md', 'a+b.md'), false);
    assert.equal(matchesGlob('x{y.md', 'x{y.md'), true);
  });

  it('splits a comma-separated list, but not inside braces', () => {
    assert.deepEqual(splitGlobList('**/*.{ts,tsx}, docs/** ,, *.md'), ['**/*.{ts,tsx}', 'docs/**', '*.md']);
  });
});
