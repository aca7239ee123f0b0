#!/usr/bin/env node
// `npm test`'s integration part: installs what is missing, builds the extension (esbuild) and the tests
// (tsc), runs test/integration inside a real VS Code (code-server + headless chromium) with the repository
// root as the extension under development, and ends with `integration: N passed, M failed`.
//
//   node test/vscode/run-integration.js [--vsix <file>] [--grep <pattern>] [--timeout <seconds>] [--verbose]
//                                       [--no-build] [--suite all|main|restricted] [--vscode <version>] [--env K=V]...
//   --vsix    test that packaged .vsix instead of the folder (installed; see harness.js)
//   --grep    only tests whose full title matches (CTX_TEST_GREP)
//   --no-build  skip esbuild and tsc (when you just built)
//   --suite   `main`: the suite with Workspace Trust off; `restricted`: the tests of test/integration/restricted
//             in a second, shorter run whose workspace is untrusted (Restricted Mode); `all` (default): both
//   --env     an environment variable for the tests in the extension host (CTX_TEST_REPORTED_WINDOW=model)
//   --vscode  the VS Code version to run on (releases.js: 1.139.1, the default, or 1.104.0, the oldest ctx
//             supports; `1.104` is enough); sets CTX_TEST_VSCODE, which install.js and nodeRuntime.js read
// Environment: CTX_TEST_VERBOSE=1 prints code-server, browser and page-channel lines too.
'use strict';

const path = require('path');
const { spawnSync } = require('child_process');
const { findRelease } = require('./releases');

const ROOT = path.resolve(__dirname, '..', '..');

function step(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stdout.write(`[integration] ${label} failed (exit ${result.status})\n`);
    process.stdout.write('integration: 0 passed, 1 failed\n');
    process.exit(1);
  }
  process.stdout.write(`[integration] ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

function parseArgs(argv) {
  const opts = { env: {}, build: true, suite: 'all' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--no-build') opts.build = false;
    else if (arg === '--vsix') opts.vsix = path.resolve(argv[++i]);
    else if (arg === '--grep') opts.env.CTX_TEST_GREP = argv[++i];
    else if (arg === '--env') {
      const [key, ...value] = argv[++i].split('=');
      opts.env[key] = value.join('=');
    } else if (arg === '--timeout') opts.timeoutMs = Number(argv[++i]) * 1000;
    else if (arg === '--verbose') opts.verbose = true;
    else if (arg === '--suite') opts.suite = argv[++i];
    else if (arg === '--vscode') opts.vscode = findRelease(argv[++i]).vscode;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!['all', 'main', 'restricted'].includes(opts.suite)) throw new Error(`--suite must be all, main or restricted (got ${opts.suite})`);
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  // Before install.js and the harness load: they read the release once, from CTX_TEST_VSCODE.
  if (opts.vscode) process.env.CTX_TEST_VSCODE = opts.vscode;
  const { install, VSCODE_VERSION } = require('./install');
  const { runTests, printResults } = require('./harness');
  process.stdout.write(`[integration] VS Code ${VSCODE_VERSION}\n`);
  install();
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const { build, suite, vscode: _vscode, ...harnessOptions } = opts;
  if (build) {
    step('build: node esbuild.js', process.execPath, [path.join(ROOT, 'esbuild.js')]);
    step('compile tests: tsc -p . --outDir out', process.execPath, [tsc, '-p', '.', '--outDir', 'out']);
  }
  const runs = suite === 'all' ? [false, true] : [suite === 'restricted'];
  const summaries = [];
  for (const restrictedMode of runs) {
    if (restrictedMode) process.stdout.write('[integration] Restricted Mode: a second run with the workspace untrusted\n');
    const summary = await runTests({
      extensionTestsPath: path.join(ROOT, 'out', 'test', 'integration', 'index.js'),
      extensionDevelopmentPath: ROOT,
      ...harnessOptions,
      restrictedMode,
    });
    printResults(summary);
    summaries.push(summary);
    if (summary.interrupted) break;
  }
  const passed = summaries.reduce((n, s) => n + s.passed, 0);
  const failed = summaries.reduce((n, s) => n + s.failed, 0);
  process.stdout.write(`[integration] total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`integration: ${passed} passed, ${failed} failed\n`);
  process.exit(summaries.some((s) => s.interrupted) ? 130 : summaries.every((s) => s.ok) ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`[integration] ${e && e.stack ? e.stack : e}\n`);
  process.stdout.write('integration: 0 passed, 1 failed\n');
  process.exit(1);
});
