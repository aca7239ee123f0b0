import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The engine is pure TypeScript (conventions: enforce the split with a lint rule). */
const NO_VSCODE_PATH = { name: 'vscode', message: 'The engine is pure TypeScript: no vscode import.' };
const NO_VSCODE_LAYER = { group: ['**/vscode/**', '**/vscode'], message: 'The engine may not depend on the VS Code layer.' };
/** engine/host/ is the hosts' way in; inside the engine, import the file that holds the name. */
const NO_HOST_SURFACE = {
  regex: '(^|/)host/',
  message: 'engine/host/ is for the hosts: inside the engine, import the file that holds the name.',
};

/**
 * The engine's import rule with `floor`, a pattern one floor adds. Flat config replaces a rule's
 * options per file, so every override of the engine carries the vscode and public-surface restrictions with its own.
 */
const engineImports = (...floor) => ({
  'no-restricted-imports': ['error', { paths: [NO_VSCODE_PATH], patterns: [NO_VSCODE_LAYER, NO_HOST_SURFACE, ...floor] }],
});

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
    rules: engineImports(),
  },
  {
    // The floors of the engine (docs/design.md, "Which folder may import which"): only session/, the top, imports it.
    files: ['src/engine/**/*.ts'],
    ignores: [
      'src/engine/session/**',
      'src/engine/model/**',
      // These drive a live ContextSession (run a turn, relay a request, route to or branch a session): they sit above
      // session/ and need the session object itself, not one of its shapes.
      'src/engine/turn/**',
      'src/engine/relay/**',
      'src/engine/conversation/conversationRouter.ts',
      'src/engine/conversation/branchSession.ts',
      // The public surface re-exports what hosts use, the session included; nothing in the engine imports it.
      'src/engine/host/**',
    ],
    rules: engineImports({
      regex: '(^|/)session/',
      message: 'session/ is the top of the engine: import the shapes from model/, or take a port, instead of the session folder.',
    }),
  },
  {
    // model/ is the bottom floor: the shapes every part reads. It imports only leaf files that import nothing above them.
    files: ['src/engine/model/**/*.ts'],
    rules: engineImports({
      regex: '^\\.\\./(?!(types|schema|levels|ids|tokens/counter)$)',
      message: 'model/ is the bottom of the engine: it may import only ../types, ../schema, ../levels, ../ids and ../tokens/counter.',
    }),
  },
  {
    // The hosts see the engine through its public surface only (docs/design.md, "Which folder may import which"):
    // the entry files in engine/host/. No other restricted import applies to these files, so no options are dropped.
    files: ['src/vscode/**/*.ts', 'src/cli/**/*.ts', 'src/extension.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)engine(/(?!host/[A-Za-z]+$)|$)',
              message: 'Hosts import the engine through its public surface: an entry file in src/engine/host/ (add the name there).',
            },
          ],
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
