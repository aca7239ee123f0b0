#!/usr/bin/env node
// `npm start`: a real VS Code (code-server 4.139.1 = VS Code 1.139.1; CTX_TEST_VSCODE=1.104 for 1.104.0) with ctx installed from the .vsix it
// packages now, plus the test-only stand-in model (so Chat works offline), in a persistent demo profile
// under .vscode-test/demo/. Prints the URL; Ctrl-C stops everything it started.
//
// The demo session is made by the real product, not by writing files: code-server runs with
// CTX_STANDIN_DEMO=1, and when the workbench first opens in a profile with no ctx session, the stand-in
// (test/extensions/standin/demo.js) scripts its replies and asks @ctx a few questions through the Chat view.
// Later runs reuse the profile and its session; delete .vscode-test/demo/ for a fresh demo.
//
//   node test/vscode/start.js [--port <n>] [--check]
//   --port   listen on this port (default: the previous run's, else a free one; VS Code keys the
//            workspace's storage, and so the demo session, by the URL)
//   --check  do not wait for Ctrl-C: open the workbench in headless chromium, wait for the demo
//            conversation when it is being played (a level in the status bar, offloaded results and a
//            checkpoint in the tree, the status report), save test-results/screenshots/demo.png, and stop
'use strict';

const fs = require('fs');
const net = require('net');
const path = require('path');
const { ensureDependencies } = require('../dependencies');
const { install, ROOT, CACHE } = require('./install');
const { packageTestExtension, STANDIN, STANDIN_ID } = require('./testExtensions');
const { packageCtx } = require('./packageVsix');
const {
  profileDirs,
  makeProfileDirs,
  releaseProfileDirs,
  isolatedEnv,
  writeUserSettings,
  installExtensions,
  startCodeServer,
} = require('./codeServer');
const { freePort, killTree, findDescendants } = require('./processes');
const { selectedRelease } = require('./releases');

const DEMO_DIR = path.join(CACHE, 'demo');
const CTX_ID = 'ctx-dev.ctx';
const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

/** Set on code-server: the stand-in then plays the demo conversation with @ctx (test/extensions/standin/demo.js). */
const DEMO_ENV = 'CTX_STANDIN_DEMO';
/** Written by the stand-in into its workspace storage when the demo conversation is done (or failed). */
const DEMO_MARKER = 'demo.json';
/** Written by the stand-in into its global storage when it starts the demo: the profile's one demo session. */
const DEMO_PLAYED = 'demo-played.json';
/** How long `--check` waits for the demo conversation. */
const DEMO_TIMEOUT_MS = 300000;

/**
 * Settings of the demo profile, added to User/settings.json when missing (a user's own changes stay): the
 * quiet workbench of the tests. @ctx needs no setting to use the stand-in's tools: it offers every tool.
 */
const DEMO_SETTINGS = {
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  // The demo's checkpoint is written by ctx's own summarizer: the stand-in is no model to summarize with.
  'ctx.summarizer.model': 'deterministic',
  // The release's own (1.139: Copilot's chat setup completes offline without a sign-in dialog).
  ...selectedRelease().userSettings,
};

/** Remembers the demo's port: VS Code keys a workspace's storage by its URL (127.0.0.1:<port>/…). */
const PORT_FILE = path.join(DEMO_DIR, 'port');

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The port for the demo: `--port`, else the one of the previous run (so the browser sees the same workspace,
 * with its ctx session, chat and layout), else a free one. Saved for the next run. `sameWorkspace` is false
 * when the port differs from the previous run's.
 */
async function demoPort(requested) {
  const previous = Number(fs.existsSync(PORT_FILE) ? fs.readFileSync(PORT_FILE, 'utf8').trim() : NaN);
  const hasPrevious = Number.isInteger(previous) && previous > 0;
  let port = requested;
  if (!port && hasPrevious) {
    if (await portIsFree(previous)) port = previous;
    else say(`port ${previous} of the previous run is busy: using another one`);
  }
  port = port || (await freePort());
  const sameWorkspace = !hasPrevious || port === previous;
  if (!sameWorkspace)
    say(
      `the demo was on port ${previous} before: VS Code sees 127.0.0.1:${port} as a new workspace, and the demo conversation plays again there`,
    );
  fs.writeFileSync(PORT_FILE, `${port}\n`);
  return { port, sameWorkspace };
}

/** Adds the missing demo settings; leaves a settings file it cannot parse (comments) alone. */
function ensureDemoSettings(dirs) {
  const file = path.join(dirs.userData, 'User', 'settings.json');
  if (!fs.existsSync(file)) writeUserSettings(dirs);
  let settings;
  try {
    settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    say(`${path.relative(ROOT, file)} is not plain JSON; not adding the demo settings (${Object.keys(DEMO_SETTINGS).join(', ')})`);
    return;
  }
  const missing = Object.keys(DEMO_SETTINGS).filter((k) => !(k in settings));
  if (missing.length === 0) return;
  for (const k of missing) settings[k] = DEMO_SETTINGS[k];
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

/** Files under every `User/workspaceStorage/<hash>/<extensionId>/` folder matching `relative` (a path). */
function inWorkspaceStorage(userDataDir, extensionId, relative) {
  const root = path.join(userDataDir, 'User', 'workspaceStorage');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .map((hash) => path.join(root, hash, extensionId, relative))
    .filter((p) => fs.existsSync(p));
}

/** Offloaded result files of the ctx sessions stored in the demo profile. */
function demoOffloads(userDataDir) {
  return inWorkspaceStorage(userDataDir, CTX_ID, 'sessions').flatMap((sessions) =>
    fs.readdirSync(sessions).flatMap((id) => {
      const dir = path.join(sessions, id, 'offloaded');
      return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
    }),
  );
}

/** The stand-in's mark that the demo was played in this profile (test/extensions/standin/demo.js): one demo session. */
function playedMarker(userDataDir) {
  return path.join(userDataDir, 'User', 'globalStorage', STANDIN_ID, DEMO_PLAYED);
}

/** Whether the demo was played in this profile, or its workspace holds a ctx session (then it is not played again). */
function demoPlayed(userDataDir) {
  return (
    fs.existsSync(playedMarker(userDataDir)) ||
    inWorkspaceStorage(userDataDir, CTX_ID, 'sessions').some((dir) => fs.readdirSync(dir).length > 0)
  );
}

/** The stand-in's demo result written after `since` (ms), or undefined. */
function demoResult(userDataDir, since) {
  for (const file of inWorkspaceStorage(userDataDir, STANDIN_ID, DEMO_MARKER)) {
    if (fs.statSync(file).mtimeMs < since) continue;
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // Being written: next poll.
    }
  }
  return undefined;
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

/** The text of ctx's status-bar item in the page ('' when it is not there). */
function ctxStatusText(page) {
  return page.evaluate(() => {
    const item = [...document.querySelectorAll('.statusbar-item')].find((e) => e.id.includes('ctx.level'));
    return item ? item.innerText.trim() : '';
  });
}

/** Whether any frame of the page (webviews are frames) shows text matching `pattern`. */
async function framesShow(page, pattern) {
  for (const frame of page.frames()) {
    const text = await frame.evaluate(() => (document.body ? document.body.innerText : '')).catch(() => '');
    if (pattern.test(text)) return true;
  }
  return false;
}

/** Polls `probe` (async, truthy when done) until `timeoutMs`; the error names `what` and what `seen()` returns. */
async function pollUntil(what, probe, timeoutMs, seen = async () => '') {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${await seen().then((s) => (s ? `; seen: ${s}` : ''))}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Whether the chat conversation of the demo has been saved (VS Code writes chatSessions/ a few seconds after a change). */
function chatSaved(userDataDir, lastQuery) {
  return inWorkspaceStorage(userDataDir, '', 'chatSessions').some((dir) =>
    fs.readdirSync(dir).some((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes(lastQuery)),
  );
}

/**
 * Opens the workbench headless and waits for the stand-in's word on the demo (its demo.json). When it played
 * the demo conversation now, waits for ctx's level in the status bar, the offloaded results and the checkpoint
 * in the Context tree and the report's editor tab. Saves a screenshot; returns its path and the status bar's
 * ctx text.
 */
async function screenshotDemo(url, dirs, env, since) {
  const { chromium } = require('playwright-core');
  const profile = path.join(dirs.baseDir, 'chromium-check');
  fs.rmSync(profile, { recursive: true, force: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
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
    const result = await pollUntil(
      "the stand-in's demo.json",
      async () => demoResult(dirs.userData, since),
      DEMO_TIMEOUT_MS,
      () => ctxStatusText(page),
    );
    if (!result.ok) throw new Error(`the demo conversation failed: ${result.error}`);
    if (result.played) {
      say(
        `the stand-in played the demo conversation in ${(result.ms / 1000).toFixed(1)} s (session ${result.sessionId}, ${demoOffloads(dirs.userData).length} offloaded results)`,
      );
      await pollUntil(
        "a level in ctx's status-bar item",
        async () => /\b(GREEN|YELLOW|ORANGE)\b/.test(await ctxStatusText(page)),
        15000,
        () => ctxStatusText(page),
      );
      const sideBar = () => page.evaluate(() => (document.getElementById('workbench.parts.sidebar') || {}).innerText || '');
      await pollUntil(
        'offloaded results and a checkpoint in the Context tree',
        async () => /ctxStandin_readFile/.test(await sideBar()) && /Checkpoint 1/.test(await sideBar()),
        15000,
        sideBar,
      );
      const tabs = () =>
        page.evaluate(() => [...document.querySelectorAll('.tabs-container .tab')].map((t) => t.innerText.trim()).join(' | '));
      await pollUntil("the status report's editor", async () => /Context Status Report/.test(await tabs()), 15000, tabs);
      // The report is a Markdown preview: a webview, whose text is in a frame of its own.
      await pollUntil("the status report's text in its preview", () => framesShow(page, /Usage:/), 30000).catch((e) => say(e.message));
      await page.waitForTimeout(1000);
    } else {
      say(`the stand-in did not play the demo: ${result.reason}`);
      await page.waitForTimeout(3000);
    }
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, 'demo.png');
    await page.screenshot({ path: file });
    const status = await ctxStatusText(page);
    if (result.played) {
      // So that the next `npm start` shows the conversation too: the page closes right after this.
      await pollUntil('VS Code to save the chat', async () => chatSaved(dirs.userData, result.lastQuery), 20000).catch((e) =>
        say(`${e.message} (the next run's Chat view may be empty)`),
      );
    }
    return { file, status };
  } finally {
    await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    for (const pid of pids) await killTree(pid);
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  ensureDependencies();
  install();
  say('packaging ctx (vsce package; builds with --production)…');
  const vsix = packageCtx();
  say(`packaged ${path.relative(ROOT, vsix)}`);
  const standin = packageTestExtension(STANDIN);

  const dirs = profileDirs(DEMO_DIR);
  makeProfileDirs(dirs);
  const workspaceDir = path.join(DEMO_DIR, 'workspace');
  if (!fs.existsSync(workspaceDir)) {
    fs.mkdirSync(workspaceDir, { recursive: true });
    fs.writeFileSync(
      path.join(workspaceDir, 'README.md'),
      '# ctx demo workspace\n\n' +
        'The first time this workspace opens, the offline ctx test stand-in (a scripted model, not a real one) writes a small\n' +
        'project into `orders-api/` and plays a short session with `@ctx` about its broken CI build in the Chat view, so\n' +
        'the Context view, the status bar and the dashboard have something to show.\n' +
        "Ask `@ctx` more in the Chat view; unscripted questions get the stand-in's canned reply.\n",
    );
  }
  ensureDemoSettings(dirs);
  const env = isolatedEnv(dirs, { [DEMO_ENV]: '1' });
  installExtensions(dirs, [standin.vsix, vsix], env);
  const { port, sameWorkspace } = await demoPort(opts.port);
  // Another port is another workspace to VS Code: the demo plays there, once.
  if (!sameWorkspace) fs.rmSync(playedMarker(dirs.userData), { force: true });
  // The demo session is made by the real product when the workbench first opens: the stand-in asks @ctx.
  const playsDemo = !demoPlayed(dirs.userData);
  const since = Date.now() - 1000;

  const server = await startCodeServer({ dirs, workspace: workspaceDir, env, enableProposedApi: [standin.id], port });
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
      const started = Date.now();
      const { file, status } = await screenshotDemo(url, dirs, env, since);
      say(`screenshot ${path.relative(ROOT, file)} (status bar: "${status}"; ${((Date.now() - started) / 1000).toFixed(1)} s)`);
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
  if (playsDemo) {
    say('when the page first opens, the offline stand-in model plays a scripted session with @ctx (one to two minutes):');
    say(
      '  it explores a small project (orders-api/) and finds why its CI build broke: the big install log is offloaded, a goal and a decision ' +
        "are set, /compress makes a checkpoint with ctx's own summarizer, then the Context tree and status report open.",
    );
  } else {
    say('the demo session from an earlier run is in the Context view (activity bar); ask @ctx in the Chat view to continue it.');
  }
  say(
    `Chat: Ctrl+Alt+I. Unscripted questions get the stand-in's canned reply; it is not a real model. Fresh demo: delete ${path.relative(ROOT, DEMO_DIR)}/. Ctrl-C stops.`,
  );
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`[start] ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  });
}
