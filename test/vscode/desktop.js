#!/usr/bin/env node
// `npm run test:desktop`: the same integration suite in desktop VS Code through @vscode/test-electron, for
// machines with internet (it downloads VS Code from Microsoft's servers, which these build machines cannot
// reach: use `npm test`, i.e. run-integration.js with code-server, here).
//
//   node test/vscode/desktop.js [--vsix <file>] [--grep <pattern>] [--no-build]
// Environment: CTX_VSCODE_VERSION (default 1.104.0, the oldest VS Code ctx supports; the stand-in model
// needs the language-model provider API finalized in 1.104); CTX_VSCODE_EXECUTABLE uses an installed VS Code
// instead of downloading one. On Linux without a display, run it under `xvfb-run -a`.
// Page tests (test/integration/page.ts) are skipped: there is no harness-driven browser page on desktop.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ROOT } = require('./install');
const { packageTestExtensions, proposedApiIds } = require('./testExtensions');

const RUNNER_EXTENSION = path.join(__dirname, 'runner-extension');
const PROFILE = path.join(ROOT, '.vscode-test', 'desktop');

function parseArgs(argv) {
  const opts = { env: {}, build: true };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--no-build') opts.build = false;
    else if (argv[i] === '--vsix') opts.vsix = path.resolve(argv[++i]);
    else if (argv[i] === '--grep') opts.env.CTX_TEST_GREP = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

function run(label, command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${label} failed (exit ${result.status})`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { downloadAndUnzipVSCode, resolveCliPathFromVSCodeExecutablePath, runTests } = require('@vscode/test-electron');
  if (opts.build) run('build', process.execPath, [path.join(ROOT, 'esbuild.js')]);
  if (opts.build)
    run('compile tests', process.execPath, [require.resolve('typescript/bin/tsc', { paths: [ROOT] }), '-p', '.', '--outDir', 'out']);

  const version = process.env.CTX_VSCODE_VERSION || '1.104.0';
  const vscodeExecutablePath = process.env.CTX_VSCODE_EXECUTABLE || (await downloadAndUnzipVSCode(version));
  const extensionsDir = path.join(PROFILE, 'extensions');
  const userDataDir = path.join(PROFILE, 'user-data');
  const workspace = path.join(PROFILE, 'workspace');
  const resultFile = path.join(PROFILE, 'results.json');
  fs.rmSync(PROFILE, { recursive: true, force: true });
  for (const dir of [extensionsDir, userDataDir, workspace]) fs.mkdirSync(dir, { recursive: true });

  const profileArgs = [`--extensions-dir=${extensionsDir}`, `--user-data-dir=${userDataDir}`];
  const testExtensions = packageTestExtensions();
  const vsixes = [...testExtensions.map((t) => t.vsix), ...(opts.vsix ? [opts.vsix] : [])];
  const cli = resolveCliPathFromVSCodeExecutablePath(vscodeExecutablePath);
  const installed = spawnSync(cli, [...profileArgs, ...vsixes.flatMap((v) => ['--install-extension', v]), '--force'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (installed.status !== 0) throw new Error('installing the test extensions failed');

  let exitCode = 0;
  try {
    await runTests({
      vscodeExecutablePath,
      // Testing a .vsix: the package is installed, and an empty runner extension is "under development"
      // because VS Code runs extensionTestsPath only then.
      extensionDevelopmentPath: opts.vsix ? RUNNER_EXTENSION : ROOT,
      extensionTestsPath: path.join(ROOT, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        workspace,
        ...profileArgs,
        ...proposedApiIds(testExtensions).flatMap((id) => ['--enable-proposed-api', id]),
        '--disable-telemetry',
      ],
      extensionTestsEnv: { CTX_TEST_RESULT_FILE: resultFile, ...opts.env },
    });
  } catch (e) {
    exitCode = 1;
    process.stderr.write(`[desktop] ${e && e.message ? e.message : e}\n`);
  }

  let results;
  try {
    results = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  } catch {
    results = { passed: 0, failed: 1 };
  }
  process.stdout.write(`integration: ${results.passed} passed, ${Math.max(results.failed, exitCode)} failed\n`);
  process.exit(exitCode || results.failed ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`[desktop] ${e && e.stack ? e.stack : e}\n`);
  process.stdout.write('integration: 0 passed, 1 failed\n');
  process.exit(1);
});
