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

/**
 * The engine's floors, bottom to top (docs/design.md, "Which folder may import which"). A file may import its own
 * folder, the folders below it and the engine's root files (`types.ts`, `schema.ts`, `ports.ts`, ...: the ground
 * floor, which imports no folder); never a folder above it. The lint checks every engine folder against this list.
 */
const ENGINE_FLOORS = [
  'text',
  'tokens',
  'model',
  'promptCache',
  'preview',
  'storage',
  'facts',
  'ledger',
  'recall',
  'summary',
  'tiers',
  'checkpoints',
  'drift',
  'snapshots',
  'recovery',
  'activity',
  'dashboard',
  'conversation',
  'session',
  'turn',
  'relay',
  'host',
];

/**
 * Files that sit on a higher floor than their folder, each with its reason. Keep this list short: a file that
 * belongs higher is better moved.
 */
const RAISED_FILES = [
  {
    // They route a request to a live ContextSession or branch one: they need the session object itself, not one of
    // its shapes, so they sit on session/'s floor while the rest of conversation/ (tracks, matching) stays below it.
    files: ['src/engine/conversation/conversationRouter.ts', 'src/engine/conversation/branchSession.ts'],
    floor: 'session',
  },
];

/** The pattern that keeps a file on `floor` from importing a folder above it (any depth of `../`). */
const abovePattern = (floor) => {
  const above = ENGINE_FLOORS.slice(ENGINE_FLOORS.indexOf(floor) + 1);
  return {
    regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
    message:
      `${floor}/ sits below ${above.join(', ')} (docs/design.md, "Which folder may import which"): import from its floor ` +
      'or below; the shapes are in model/, and a part above is reached through a port.',
  };
};

/** One override per floor but the top, then the raised files, then the root files (which import no folder at all). */
const engineFloors = () => [
  ...ENGINE_FLOORS.slice(0, -1).map((floor) => ({ files: [`src/engine/${floor}/**/*.ts`], rules: engineImports(abovePattern(floor)) })),
  ...RAISED_FILES.map(({ files, floor }) => ({ files, rules: engineImports(abovePattern(floor)) })),
  {
    files: ['src/engine/*.ts'],
    rules: engineImports({
      regex: `^\\./(${ENGINE_FLOORS.join('|')})(/|$)`,
      message: "The engine's root files are its ground floor: they import no engine folder (move the file into the folder it belongs to).",
    }),
  },
];

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
  ...engineFloors(),
  {
    // model/ holds the shapes every part reads. Stricter than its floor, it imports only leaf files that import nothing above them.
    files: ['src/engine/model/**/*.ts'],
    rules: engineImports({
      regex: '^\\.\\./(?!(types|schema|levels|ids|tokens/counter)$)',
      message: 'model/ holds the shapes every part reads: it may import only ../types, ../schema, ../levels, ../ids and ../tokens/counter.',
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
