import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', '.vscode-test/**', 'node_modules/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      curly: ['warn', 'multi-line'],
      eqeqeq: ['warn', 'smart'],
      'no-console': 'warn',
      // Prettier wraps code at 140 but never splits a string or template literal; this keeps those readable too.
      'max-len': ['error', { code: 160, ignoreUrls: true }],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The engine is pure TypeScript: no vscode import.' }],
          patterns: [{ group: ['**/vscode/**', '**/vscode'], message: 'The engine may not depend on the VS Code layer.' }],
        },
      ],
    },
  },
  {
    // Only the webview's script runs in a browser page; the DOM it types must not be used elsewhere.
    files: ['src/**/*.ts'],
    ignores: ['src/webview/**'],
    rules: { 'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'requestAnimationFrame'] },
  },
  {
    files: ['test/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
