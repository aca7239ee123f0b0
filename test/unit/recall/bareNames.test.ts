import * as assert from 'node:assert/strict';
import { isBareName } from '../../../src/engine/recall/bareNames';

describe('a printed line that only names a file', () => {
  it('is a path, a file with an extension or a folder, with at most a line number, a count or a few characters beside it', () => {
    for (const line of [
      'site/docs/guide.mdx                 32',
      '.github\\workflows\\vale.yml',
      'D:\\prompt-kit\\src\\shell\\scripts\\init.nu',
      '~/.claude/commands',
      './src/index.ts',
      'dist/',
      'tsconfig.json',
      'hints.mdx:40',
      '/home/dev/cli/logging/logger.go-10-//',
      '  src/app/page.tsx:12:5',
    ]) {
      assert.ok(isBareName(line), line);
    }
  });

  it('is not a line that says something beside the name, a command, a URL, a version or a label with a figure', () => {
    for (const line of [
      'src\\shell\\zsh_test.go:24:_pk_enable_vimode`',
      'analyze.md: ## Gather the full context',
      'src/app.ts:12:5 - error TS2304: Cannot find name "foo".',
      '/check-bundle-size',
      'https://example.com/docs/page.html',
      'v1.2.3',
      'Test.....................Passed',
      'total: 281',
      'LineNumber : 12',
      'Done.',
    ]) {
      assert.ok(!isBareName(line), line);
    }
  });
});
