#!/usr/bin/env node
// Runs a mocha suite inside a real VS Code extension host (the release of releases.js): code-server on 127.0.0.1 in an isolated run
// folder, the workbench opened in headless Debian chromium through playwright-core, and the tests started
// through the workbench's `payload` URL parameter (extensionDevelopmentPath + extensionTestsPath), the way
// VS Code's own browser integration tests do. See test/vscode/README.md.
//
// CLI:
//   node test/vscode/harness.js --tests out/test/integration/index.js [--dev <folder> | --vsix <file>]
//        [--workspace <folder>] [--install <vsix>]... [--env KEY=VALUE]... [--timeout <seconds>] [--verbose]
//        [--restricted-mode]
//   --dev    the extension under development (default: the repository root)
//   --vsix   test an installed package instead: the .vsix is installed into the run's extensions folder
//            and an empty test-runner extension (test/vscode/runner-extension) is the development path,
//            because VS Code runs extensionTestsPath only while some extension is under development.
//   --restricted-mode  Workspace Trust on and the folder untrusted; runs the suite's restricted/ tests
// Module: const { runTests } = require('./harness'); await runTests({ extensionTestsPath, ... })
'use strict';

const fs = require('fs');
const path = require('path');
const util = require('util');
const { install, ROOT, CACHE } = require('./install');
const { packageTestExtensions, proposedApiIds } = require('./testExtensions');
const {
  profileDirs,
  makeProfileDirs,
  releaseProfileDirs,
  isolatedEnv,
  writeUserSettings,
  installExtensions,
  startCodeServer,
  RESTRICTED_MODE_SETTINGS,
} = require('./codeServer');
const { servePageChannel } = require('./pageChannel');
const { killTree, killTreeSync, findDescendants } = require('./processes');

const RUNS_DIR = path.join(CACHE, 'runs');
const RUNS_KEPT = 5;
const RUNNER_EXTENSION = path.join(__dirname, 'runner-extension');
const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Prints with a dim prefix, so harness lines stand apart from test output. */
function say(message) {
  process.stdout.write(`[harness] ${message}\n`);
}

/** A new run folder; older ones beyond the last few are removed. */
function makeRunDir() {
  fs.mkdirSync(RUNS_DIR, { recursive: true });
  const existing = fs.readdirSync(RUNS_DIR).sort();
  for (const old of existing.slice(0, Math.max(0, existing.length - (RUNS_KEPT - 1)))) {
    fs.rmSync(path.join(RUNS_DIR, old), { recursive: true, force: true });
  }
  // Short ids (base-36 time + pid, sortable): VS Code puts unix sockets in TMPDIR, whose paths must stay
  // under 108 characters.
  const id = `${Date.now().toString(36)}-${process.pid.toString(36)}`;
  const dir = path.join(RUNS_DIR, id);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function remoteUri(port, absPath) {
  return `vscode-remote://127.0.0.1:${port}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`;
}

function workbenchUrl(port, workspace, developmentPath, testsPath) {
  const payload = [
    ['extensionDevelopmentPath', remoteUri(port, developmentPath)],
    ['extensionTestsPath', remoteUri(port, testsPath)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * Workbench chatter that says nothing about the tests; kept in harness.log, printed with --verbose.
 * The extension host's own console output and mocha's reporter are never matched.
 */
const NOISE = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket/,
  /^\[Service Worker\]/,
  /^Updating additional builtin extensions cache/,
  /^Ignoring fetching additional builtin extensions from gallery/,
  /^ChatSessionStore: Migrating/,
  /^Creation of workbench contribution .* took \d+ms/,
  /^WARNING: IPC handle .* is longer than/,
  /^\s+at .*\(?https?:\/\/127\.0\.0\.1:\d+\/.*\/static\/out\//,
];

function isNoise(line) {
  return NOISE.some((re) => re.test(line));
}

function readResults(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Resolves after `ms`, unless cancelled; returns { promise, cancel }. */
function timer(ms, value) {
  let handle;
  const promise = new Promise((resolve) => {
    handle = setTimeout(() => resolve(value), ms);
  });
  return { promise, cancel: () => clearTimeout(handle) };
}

/** Races `promise` against a time limit; never rejects. */
async function bounded(promise, ms) {
  const t = timer(ms, 'timeout');
  try {
    return await Promise.race([promise.catch(() => 'error'), t.promise]);
  } finally {
    t.cancel();
  }
}

/**
 * Runs the tests and returns:
 * { ok, passed, failed, pending, tests, metrics, durationMs, exitCode, reason, runDir, resultFile, interrupted }
 * Never throws for test failures; throws only when it cannot start at all.
 */
async function runTests(options) {
  const started = Date.now();
  const opts = {
    extensionDevelopmentPath: ROOT,
    vsix: undefined,
    workspace: undefined,
    extensions: [],
    env: {},
    settings: {},
    // A limit for a run that hangs, not an expectation: a loaded CI runner takes several times an idle machine's time.
    timeoutMs: 1200000,
    verbose: false,
    // Opens the workspace untrusted (Restricted Mode) and runs the suite's restricted/ tests instead.
    restrictedMode: false,
    ...options,
  };
  if (!opts.extensionTestsPath) throw new Error('runTests: extensionTestsPath is required');
  const testsPath = path.resolve(opts.extensionTestsPath);
  if (!fs.existsSync(testsPath)) throw new Error(`runTests: ${testsPath} does not exist (compile the tests first)`);
  const vsix = opts.vsix && path.resolve(opts.vsix);
  const developmentPath = vsix ? RUNNER_EXTENSION : path.resolve(opts.extensionDevelopmentPath);
  const verbose = opts.verbose || process.env.CTX_TEST_VERBOSE === '1';

  install();
  const testExtensions = packageTestExtensions();
  const runDir = makeRunDir();
  const dirs = profileDirs(runDir);
  makeProfileDirs(dirs);
  const channelDir = path.join(runDir, 'page-channel');
  const resultFile = path.join(runDir, 'results.json');
  const workspace = path.resolve(opts.workspace || path.join(runDir, 'workspace'));
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(channelDir, { recursive: true });
  writeUserSettings(dirs, { ...(opts.restrictedMode ? RESTRICTED_MODE_SETTINGS : {}), ...opts.settings });
  const env = isolatedEnv(dirs, {
    CTX_TEST_PAGE_CHANNEL: channelDir,
    CTX_TEST_RESULT_FILE: resultFile,
    CTX_TEST_SCREENSHOT_DIR: SCREENSHOT_DIR,
    ...(opts.restrictedMode ? { CTX_TEST_SUITE: 'restricted' } : {}),
    ...opts.env,
  });
  const logFile = fs.createWriteStream(path.join(runDir, 'harness.log'));
  const log = (line, show) => {
    logFile.write(`${line}\n`);
    if (show || verbose) process.stdout.write(`${line}\n`);
  };

  say(`run folder ${path.relative(ROOT, runDir)}`);
  const toInstall = [...testExtensions.map((t) => t.vsix), ...(vsix ? [vsix] : []), ...opts.extensions.map((e) => path.resolve(e))];
  installExtensions(dirs, toInstall, env);

  // Everything started from here on is stopped in `cleanup`, whatever happens.
  let server;
  let context;
  let browserPids = [];
  let channel;
  let cleaned = false;
  const lastResort = () => browserPids.forEach(killTreeSync);
  process.on('exit', lastResort);
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    const t0 = Date.now();
    if (channel) channel.stop();
    if (context) await bounded(context.close(), 5000);
    for (const pid of browserPids) await killTree(pid);
    const t1 = Date.now();
    if (server) await server.stop();
    releaseProfileDirs(dirs);
    log(`[harness] stopped the browser in ${t1 - t0} ms, code-server in ${Date.now() - t1} ms`);
    process.removeListener('exit', lastResort);
    await new Promise((r) => logFile.end(r));
  };

  let interruptCount = 0;
  let onInterrupt;
  const interrupted = new Promise((resolve) => {
    onInterrupt = (sig) => {
      interruptCount++;
      if (interruptCount > 1) {
        // A second Ctrl-C: stop everything now.
        lastResort();
        if (server) killTreeSync(server.pid);
        process.exit(130);
      }
      process.stdout.write(`\n[harness] ${sig}: stopping code-server and the browser…\n`);
      resolve({ kind: 'interrupted' });
    };
  });
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);

  let outcome;
  const overall = timer(opts.timeoutMs, { kind: 'timeout' });
  try {
    const phase = async () => {
      server = await startCodeServer({
        dirs,
        workspace,
        env,
        enableProposedApi: proposedApiIds(testExtensions),
        workspaceTrust: opts.restrictedMode,
        testPayload: true,
        onLine: (line) => log(`[code-server] ${line}`),
      });
      if (cleaned) {
        // The time limit or Ctrl-C came while it was starting: cleanup has already run.
        await server.stop();
        return { kind: 'cancelled' };
      }
      say(`code-server ${server.url} (pid ${server.pid}) ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);

      const { chromium } = require('playwright-core');
      const profile = path.join(runDir, 'chromium-profile');
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        env,
        viewport: { width: 1440, height: 900 },
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      browserPids = findDescendants(profile).filter((pid, _, all) => !all.includes(parentOf(pid)));
      if (cleaned) {
        await bounded(context.close(), 5000);
        for (const pid of browserPids) await killTree(pid);
        await server.stop();
        return { kind: 'cancelled' };
      }
      const page = context.pages()[0] || (await context.newPage());

      let resolveExit;
      const exitCalled = new Promise((resolve) => {
        resolveExit = resolve;
      });
      await page.exposeFunction('codeAutomationLog', (type, args) => {
        const text = Array.isArray(args) ? util.format(...args) : util.format(args);
        const tag = `[host${type && type !== 'info' && type !== 'log' ? ` ${type}` : ''}]`;
        for (const line of text.split('\n')) log(`${tag} ${line}`, !isNoise(line));
      });
      await page.exposeFunction('codeAutomationExit', async (code, logs) => {
        try {
          if (Array.isArray(logs)) {
            const logsDir = path.join(runDir, 'workbench-logs');
            for (const entry of logs) {
              if (!entry || typeof entry.relativePath !== 'string') continue;
              const target = path.join(logsDir, entry.relativePath.replace(/\.\.+/g, '_'));
              fs.mkdirSync(path.dirname(target), { recursive: true });
              fs.writeFileSync(target, entry.contents || '');
            }
          }
        } catch {
          // Logs are a convenience.
        }
        resolveExit({ kind: 'exit', code });
      });
      page.on('console', (msg) => log(`[browser ${msg.type()}] ${msg.text()}`));
      page.on('pageerror', (err) => log(`[browser pageerror] ${err.message}`));
      const pageClosed = new Promise((resolve) => page.on('close', () => resolve({ kind: 'page-closed' })));
      page.on('crash', () => log('[browser] page crashed', true));

      channel = servePageChannel({ dir: channelDir, page, screenshotDir: SCREENSHOT_DIR, log: (l) => log(`[page] ${l}`) });
      const url = workbenchUrl(server.port, workspace, developmentPath, testsPath);
      log(`[harness] opening ${url}`);
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30000 });
      const serverExited = server.exited.then((info) => ({ kind: 'server-exited', info }));
      const result = await Promise.race([exitCalled, serverExited, pageClosed]);
      log(`[harness] ${result.kind} ${result.code !== undefined ? result.code : ''} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (result.kind !== 'exit') {
        await bounded(page.screenshot({ path: path.join(SCREENSHOT_DIR, 'harness-failure.png') }), 5000);
      }
      return result;
    };
    const running = phase();
    outcome = await Promise.race([running, overall.promise, interrupted]);
    if (outcome.kind === 'timeout' && context) {
      const page = context.pages()[0];
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      if (page) await bounded(page.screenshot({ path: path.join(SCREENSHOT_DIR, 'harness-timeout.png') }), 5000);
    }
    running.catch(() => {});
  } catch (e) {
    outcome = { kind: 'error', error: e };
  } finally {
    overall.cancel();
    await cleanup();
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
  }

  const results = readResults(resultFile);
  const summary = {
    ok: false,
    passed: 0,
    failed: 0,
    pending: 0,
    tests: [],
    metrics: {},
    ...(results || {}),
    durationMs: Date.now() - started,
    exitCode: outcome.kind === 'exit' ? outcome.code : undefined,
    runDir,
    resultFile,
    interrupted: outcome.kind === 'interrupted',
    reason: undefined,
  };
  if (outcome.kind === 'exit' && results) {
    summary.ok = outcome.code === 0 && summary.failed === 0;
    if (outcome.code !== 0 && summary.failed === 0) summary.reason = `the test runner exited with code ${outcome.code}`;
  } else if (outcome.kind === 'exit') {
    summary.reason = `the extension host exited with code ${outcome.code} without writing ${path.relative(ROOT, resultFile)} (did the tests module load? see the [host] lines above)`;
  } else if (outcome.kind === 'timeout') {
    summary.reason = `time limit of ${opts.timeoutMs / 1000} s reached (screenshot: test-results/screenshots/harness-timeout.png)`;
  } else if (outcome.kind === 'interrupted') {
    summary.reason = 'interrupted';
  } else if (outcome.kind === 'server-exited') {
    summary.reason = `code-server exited during the run (${JSON.stringify(outcome.info)}); see ${path.relative(ROOT, runDir)}/harness.log`;
  } else if (outcome.kind === 'page-closed') {
    summary.reason = 'the workbench page closed before the tests finished';
  } else {
    summary.reason = `harness error: ${outcome.error && outcome.error.stack ? outcome.error.stack : outcome.error}`;
  }
  if (!summary.ok && summary.failed === 0) summary.failed = 1;
  return summary;
}

function parentOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/**
 * Prints what mocha's own reporter (shown above as [host] lines) does not: the failures again in one
 * place, the metrics, and any problem of the harness itself.
 */
function printResults(summary) {
  const out = (s) => process.stdout.write(`${s}\n`);
  const failures = (summary.tests || []).filter((t) => t.state === 'failed');
  if (failures.length) {
    out('');
    out('  failed:');
    for (const t of failures) {
      out(`    ✗ ${t.fullTitle}`);
      const message = t.error ? String(t.error.message) : '(no error recorded)';
      for (const line of message.split('\n').slice(0, 6)) out(`        ${line}`);
    }
  }
  const metrics = Object.entries(summary.metrics || {});
  if (metrics.length) {
    out('');
    out('  metrics:');
    for (const [name, value] of metrics) out(`    ${name}: ${typeof value === 'number' ? Math.round(value * 100) / 100 : value}`);
  }
  if (summary.reason) {
    out('');
    out(`  problem: ${summary.reason}`);
  }
  out('');
  say(
    `${(summary.durationMs / 1000).toFixed(1)} s; results in ${path.relative(ROOT, summary.resultFile)}, logs in ${path.relative(ROOT, summary.runDir)}/harness.log`,
  );
}

function parseArgs(argv) {
  const opts = { extensions: [], env: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--tests') opts.extensionTestsPath = next();
    else if (arg === '--dev') opts.extensionDevelopmentPath = next();
    else if (arg === '--vsix') opts.vsix = next();
    else if (arg === '--workspace') opts.workspace = next();
    else if (arg === '--install') opts.extensions.push(next());
    else if (arg === '--timeout') opts.timeoutMs = Number(next()) * 1000;
    else if (arg === '--verbose') opts.verbose = true;
    else if (arg === '--restricted-mode') opts.restrictedMode = true;
    else if (arg === '--env') {
      const [key, ...rest] = next().split('=');
      opts.env[key] = rest.join('=');
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        fs
          .readFileSync(__filename, 'utf8')
          .split('\n')
          .slice(5, 15)
          .map((l) => l.replace(/^\/\/ ?/, ''))
          .join('\n') + '\n',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (!opts.extensionTestsPath) opts.extensionTestsPath = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
  return opts;
}

module.exports = { runTests, printResults, parseArgs, SCREENSHOT_DIR };

if (require.main === module) {
  (async () => {
    const summary = await runTests(parseArgs(process.argv.slice(2)));
    printResults(summary);
    process.stdout.write(`vscode: ${summary.passed} passed, ${summary.failed} failed\n`);
    process.exit(summary.interrupted ? 130 : summary.ok ? 0 : 1);
  })().catch((e) => {
    process.stderr.write(`[harness] ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}
