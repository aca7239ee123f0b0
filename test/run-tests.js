#!/usr/bin/env node
// `npm test`: the project's packages (npm ci when node_modules is missing or stale), type-check, lint, formatting,
// build, unit tests in plain node, then the integration suite in a real VS Code (code-server + headless Chromium) on the newest known release, and its smoke tests on the oldest
// one ctx supports (test/vscode/releases.js). Ends with one summary line for the whole run.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { ensureDependencies } = require('./dependencies');
const { OLDEST_RELEASE, selectedRelease } = require('./vscode/releases');

const root = path.resolve(__dirname, '..');
const totals = { passed: 0, failed: 0 };
/** The failures the counted steps printed, named again at the very end, where a reader of the last lines sees them. */
const failures = [];

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    console.log(`\n✖ ${title} failed (exit ${run.status ?? run.signal}).`);
    return false;
  }
  return true;
}

/** Runs a step whose output ends with "<word>: N passed, M failed" and adds its counts. */
function countedStep(title, command, args) {
  console.log(`\n▶ ${title}`);
  const run = spawnSync(command, args, { cwd: root, encoding: 'utf8', env: process.env, maxBuffer: 256 * 1024 * 1024 });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  const match = [...(run.stdout ?? '').matchAll(/^\w+: (\d+) passed, (\d+) failed/gm)].pop();
  failures.push(...failedTests(run.stdout ?? '').map((lines) => [`${title}:`, ...lines].join('\n')));
  if (match) {
    totals.passed += Number(match[1]);
    totals.failed += Number(match[2]);
  } else {
    totals.failed += 1;
    console.log(`\n✖ ${title} printed no result line.`);
  }
  return run.status === 0 && match !== undefined;
}

/**
 * The failed tests a step printed, each with the first lines of its error: the harness's `✗ title` lines and what is
 * indented under them, or mocha's numbered failures (`  1) suite` …) up to the error's stack.
 */
function failedTests(stdout) {
  const lines = stdout.split('\n');
  const found = [];
  lines.forEach((line, at) => {
    const harness = /^\s*✗ /.test(line);
    const mocha = /^\s{2}\d+\) \S/.test(line) && lines.slice(0, at).some((l) => /^\s+\d+ failing/.test(l));
    if (!harness && !mocha) return;
    const rest = lines.slice(at + 1, at + 10);
    const end = rest.findIndex((l) => (harness ? !/^\s{6,}\S/.test(l) : /^\s+at /.test(l) || /^\s{2}\d+\) /.test(l)));
    found.push([
      line.trim(),
      ...rest
        .slice(0, end < 0 ? rest.length : end)
        .map((l) => `    ${l.trim()}`)
        .filter((l) => l.trim()),
    ]);
  });
  return found;
}

try {
  ensureDependencies();
} catch (e) {
  console.log(`\n✖ ${e.message}`);
  process.exit(1);
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let ok =
  step('Type-check (tsc --noEmit, strict)', npx, ['tsc', '--noEmit', '-p', '.']) &&
  step('Lint (zero warnings)', npx, ['eslint', '--max-warnings', '0', 'src', 'test']) &&
  step('Formatting (prettier --check)', npx, ['prettier', '--check', '.']) &&
  step('Build (esbuild)', process.execPath, ['esbuild.js']) &&
  // A clean out/ so that no test of a file since moved or deleted runs from an old build.
  (fs.rmSync(path.join(root, 'out'), { recursive: true, force: true }), true) &&
  step('Compile tests', npx, ['tsc', '-p', '.', '--outDir', 'out']);

if (ok) ok = countedStep('Unit tests (plain node)', process.execPath, [path.join(__dirname, 'unit-runner.js')]) && ok;
// A short run of the benchmarks, so they cannot rot (figures are reported, goals are not asserted).
if (ok)
  ok =
    step('Benchmarks, short run (npm run bench:quick)', process.execPath, [path.join(root, 'out', 'test', 'bench', 'run.js'), '--quick']) &&
    ok;

if (ok && !process.argv.includes('--unit-only')) {
  // The integration suite runs against the installed .vsix, so what ships is what is tested; the .vsix is written by
  // the README's own commands, run as a user runs them (test/vscode/readmeInstall.js).
  console.log("\n▶ Package the .vsix with the README's desktop install commands, in a terminal");
  let vsix;
  try {
    vsix = require('./vscode/readmeInstall').packageAsReadmeSays();
    console.log(`${path.relative(root, vsix)}: ${(fs.statSync(vsix).size / 1024).toFixed(0)} KiB`);
  } catch (e) {
    console.log(`\n✖ Packaging failed: ${e.message}`);
    ok = false;
  }
  if (vsix)
    ok =
      countedStep(`Integration tests (real VS Code ${selectedRelease().vscode}, installed .vsix)`, process.execPath, [
        path.join(__dirname, 'vscode', 'run-integration.js'),
        '--no-build',
        '--vsix',
        vsix,
      ]) && ok;
  // The oldest VS Code ctx supports (engines.vscode) keeps a short run: the smoke tests, which run first in the suite
  // (none when CTX_TEST_VSCODE picked that release for the whole suite above).
  if (vsix && selectedRelease() !== OLDEST_RELEASE)
    ok =
      countedStep(`Smoke tests on the oldest supported VS Code (${OLDEST_RELEASE.vscode}, installed .vsix)`, process.execPath, [
        path.join(__dirname, 'vscode', 'run-integration.js'),
        '--no-build',
        '--vsix',
        vsix,
        '--vscode',
        OLDEST_RELEASE.vscode,
        '--suite',
        'main',
        '--grep',
        '^smoke: ',
      ]) && ok;
}

if (failures.length > 0) console.log(`\nfailed:\n${failures.join('\n')}`);
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
