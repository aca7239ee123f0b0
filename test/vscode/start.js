#!/usr/bin/env node
// `npm start`: a real VS Code (code-server 4.100.3 = VS Code 1.100.3) with ctx installed from the .vsix it
// packages now, plus the test-only stand-in model (so Chat works offline), in a persistent demo profile
// under .vscode-test/demo/. Prints the URL; Ctrl-C stops everything it started.
//
//   node test/vscode/start.js [--port <n>] [--check]
//   --port   listen on this port (default: a free one)
//   --check  do not wait for Ctrl-C: open the workbench in headless chromium, save
//            test-results/screenshots/demo.png, and stop (a quick look at what `npm start` shows)
'use strict';

const fs = require('fs');
const path = require('path');
const { install, ROOT, CACHE } = require('./install');
const { packageStandin, STANDIN_ID } = require('./standin');
const { packageCtx } = require('./packageVsix');
const { profileDirs, makeProfileDirs, releaseProfileDirs, isolatedEnv, writeUserSettings, installExtensions, startCodeServer } = require('./codeServer');
const { killTree, findDescendants } = require('./processes');

const DEMO_DIR = path.join(CACHE, 'demo');
const CTX_ID = 'ctx-dev.ctx';
const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

/**
 * Hook for the demo: called before code-server starts, to fill ctx's storage with a long demo session.
 * Does nothing yet.
 * @param {string} storageDir ctx's global storage folder in the demo profile
 *   (`.vscode-test/demo/user-data/User/globalStorage/ctx-dev.ctx`; code-server's `context.globalStorageUri`).
 * @param {{ workspaceDir: string, userDataDir: string }} demo the demo workspace folder and user-data folder
 *   (workspace storage is `<userDataDir>/User/workspaceStorage/<hash>/ctx-dev.ctx`, created by VS Code).
 */
async function seedDemoSession(storageDir, demo) {
  void storageDir;
  void demo;
}

function say(message) {
  process.stdout.write(`[start] ${message}\n`);
}

function parseArgs(argv) {
  const opts = { check: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') opts.port = Number(argv[++i]);
    else if (argv[i] === '--check') opts.check = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

/** Opens the workbench headless, waits for it, saves a screenshot; returns its path. */
async function screenshotDemo(url, dirs, env) {
  const { chromium } = require('playwright-core');
  const profile = path.join(dirs.baseDir, 'chromium-check');
  fs.rmSync(profile, { recursive: true, force: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    env,
    viewport: { width: 1440, height: 900 },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const pids = findDescendants(profile);
  try {
    const page = context.pages()[0] || (await context.newPage());
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30000 });
    await page.waitForSelector('#workbench\\.parts\\.statusbar', { timeout: 30000 });
    await page.waitForTimeout(4000);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, 'demo.png');
    await page.screenshot({ path: file });
    return file;
  } finally {
    await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    for (const pid of pids) await killTree(pid);
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  install();
  say('packaging ctx (vsce package; builds with --production)…');
  const vsix = packageCtx();
  say(`packaged ${path.relative(ROOT, vsix)}`);
  const standinVsix = packageStandin();

  const dirs = profileDirs(DEMO_DIR);
  makeProfileDirs(dirs);
  const workspaceDir = path.join(DEMO_DIR, 'workspace');
  if (!fs.existsSync(workspaceDir)) {
    fs.mkdirSync(workspaceDir, { recursive: true });
    fs.writeFileSync(
      path.join(workspaceDir, 'README.md'),
      '# ctx demo workspace\n\nOpen the Chat view and ask `@ctx` something. The model is the offline ctx test stand-in.\n',
    );
  }
  if (!fs.existsSync(path.join(dirs.userData, 'User', 'settings.json'))) writeUserSettings(dirs);
  const env = isolatedEnv(dirs);
  installExtensions(dirs, [standinVsix, vsix], env);
  await seedDemoSession(path.join(dirs.userData, 'User', 'globalStorage', CTX_ID), { workspaceDir, userDataDir: dirs.userData });

  const server = await startCodeServer({ dirs, workspace: workspaceDir, env, enableProposedApi: [STANDIN_ID], port: opts.port });
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    releaseProfileDirs(dirs);
    process.exit(code);
  };
  const url = `${server.url}?folder=${encodeURIComponent(workspaceDir)}`;

  if (opts.check) {
    try {
      const file = await screenshotDemo(url, dirs, env);
      say(`screenshot ${path.relative(ROOT, file)}`);
      await stop(0);
    } catch (e) {
      process.stderr.write(`[start] ${e && e.stack ? e.stack : e}\n`);
      await stop(1);
    }
    return;
  }

  process.on('SIGINT', () => {
    process.stdout.write('\n');
    say('stopping code-server…');
    stop(0);
  });
  process.on('SIGTERM', () => stop(0));
  server.exited.then((info) => {
    if (!stopping) {
      say(`code-server exited (${JSON.stringify(info)})`);
      stop(1);
    }
  });
  say(`ctx demo (profile ${path.relative(ROOT, DEMO_DIR)}/, code-server pid ${server.pid})`);
  say(`open ${url}`);
  say('Chat: open the Chat view (Ctrl+Alt+I) and ask @ctx; the model is the offline ctx test stand-in. Ctrl-C stops.');
}

module.exports = { seedDemoSession };

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`[start] ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  });
}
