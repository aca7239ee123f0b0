// Starting code-server (the release of releases.js: server + web workbench, on the Node of nodeRuntime.js) in an isolated folder: its own TMPDIR,
// XDG dirs, user data, extensions and config, bound to 127.0.0.1. Shared by the test harness and `npm start`.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { CODE_SERVER_BIN } = require('./install');
const { selectedRelease } = require('./releases');
const { NODE_BIN, withNodeRuntime } = require('./nodeRuntime');
const { freePort, killTree, killTreeSync } = require('./processes');

/** The folders of one isolated code-server profile under `baseDir`. */
function profileDirs(baseDir) {
  return {
    baseDir,
    tmp: path.join(baseDir, 'tmp'),
    xdgConfig: path.join(baseDir, 'xdg', 'config'),
    xdgData: path.join(baseDir, 'xdg', 'data'),
    xdgCache: path.join(baseDir, 'xdg', 'cache'),
    userData: path.join(baseDir, 'user-data'),
    extensions: path.join(baseDir, 'extensions'),
    config: path.join(baseDir, 'config.yaml'),
  };
}

/** Longest TMPDIR that leaves room for VS Code's socket names (`vscode-ipc-<uuid>.sock`, 52 chars; limit 107). */
const MAX_TMPDIR_LENGTH = 54;

/**
 * Creates the folders. When the profile's tmp folder has too long a path for unix sockets (a deep
 * checkout), TMPDIR becomes a short symlink in the system temp folder pointing to it (`dirs.tmpEnv`);
 * `releaseProfileDirs` removes the link.
 */
function makeProfileDirs(dirs) {
  for (const key of ['tmp', 'xdgConfig', 'xdgData', 'xdgCache', 'userData', 'extensions']) {
    fs.mkdirSync(dirs[key], { recursive: true });
  }
  dirs.tmpEnv = dirs.tmp;
  if (dirs.tmp.length > MAX_TMPDIR_LENGTH) {
    const link = path.join(os.tmpdir(), `ctx-vst-${crypto.createHash('sha1').update(dirs.tmp).digest('hex').slice(0, 10)}`);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(dirs.tmp, link);
    dirs.tmpLink = link;
    dirs.tmpEnv = link;
  }
}

/** Removes what makeProfileDirs made outside the profile folder. */
function releaseProfileDirs(dirs) {
  if (dirs.tmpLink) fs.rmSync(dirs.tmpLink, { force: true });
}

/**
 * The environment for code-server, the extension host it spawns and the browser: everything temporary
 * stays in the profile folder. Variables of an enclosing VS Code (VSCODE_*, ELECTRON_RUN_AS_NODE) are
 * dropped so they cannot redirect the child.
 */
function isolatedEnv(dirs, extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  return {
    ...env,
    TMPDIR: dirs.tmpEnv || dirs.tmp,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    // No extension gallery: these machines cannot reach it, and tests must not depend on it.
    EXTENSIONS_GALLERY: '{}',
    ...extra,
  };
}

/**
 * User settings for a run in Restricted Mode: Workspace Trust on, the folder opened untrusted, and neither
 * the startup dialog nor the banner in the way (the tests grant trust through the Workspace Trust editor).
 */
const RESTRICTED_MODE_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

/** Writes User/settings.json: quiet, deterministic workbench (no welcome page, trust prompts, updates). */
function writeUserSettings(dirs, settings = {}) {
  const file = path.join(dirs.userData, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const base = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'git.enabled': false,
    ...selectedRelease().userSettings,
  };
  fs.writeFileSync(file, JSON.stringify({ ...base, ...settings }, null, 2) + '\n');
}

/** Installs .vsix files with `code-server --install-extension` (about half a second). */
function installExtensions(dirs, vsixes, env) {
  if (vsixes.length === 0) return;
  const args = [
    CODE_SERVER_BIN,
    '--config',
    dirs.config,
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    ...vsixes.flatMap((v) => ['--install-extension', v]),
    '--force',
  ];
  const result = spawnSync(NODE_BIN, args, { env: withNodeRuntime(env), encoding: 'utf8', timeout: 60000 });
  const output = `${result.stdout || ''}${result.stderr || ''}`;
  if (result.status !== 0 || /Failed Installing/i.test(output)) {
    throw new Error(`installing ${vsixes.map((v) => path.basename(v)).join(', ')} failed:\n${output}`);
  }
}

/**
 * Starts code-server and resolves once it listens. Returns { pid, port, url, stop(), exited, output() }.
 * `onLine` receives each line it prints. `testPayload`: the workbench will be opened with extension tests in its
 * `payload` URL parameter (harness.js), which some releases honour only with extra server arguments.
 */
async function startCodeServer({
  dirs,
  workspace,
  env,
  enableProposedApi = [],
  port,
  onLine = () => {},
  readyTimeoutMs = 30000,
  workspaceTrust = false,
  testPayload = false,
}) {
  const chosenPort = port || (await freePort());
  fs.writeFileSync(dirs.config, `bind-addr: 127.0.0.1:${chosenPort}\nauth: none\ncert: false\n`);
  const args = [
    CODE_SERVER_BIN,
    '--bind-addr',
    `127.0.0.1:${chosenPort}`,
    '--auth',
    'none',
    '--config',
    dirs.config,
    '--disable-telemetry',
    '--disable-update-check',
    // Workspace Trust stays off unless a run tests Restricted Mode (see RESTRICTED_MODE_SETTINGS).
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    ...enableProposedApi.flatMap((id) => ['--enable-proposed-api', id]),
    // The harness opens the workbench with tests in its `payload` URL parameter.
    ...(testPayload ? selectedRelease().testPayloadArgs : []),
    workspace,
  ];
  // Its own process group: Ctrl-C in the terminal reaches only us, and we stop it by PID.
  const child = spawn(NODE_BIN, args, { env: withNodeRuntime(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines = [];
  let exitInfo;
  const exited = new Promise((resolve) => {
    child.on('exit', (code, sig) => {
      exitInfo = { code, signal: sig };
      resolve(exitInfo);
    });
  });
  const lastResortKill = () => killTreeSync(child.pid);
  process.on('exit', lastResortKill);

  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within ${readyTimeoutMs} ms`)), readyTimeoutMs);
    const onData = (chunk) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        lines.push(line);
        if (lines.length > 400) lines.shift();
        onLine(line);
        if (line.includes('HTTP server listening on')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((info) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited before it was ready (${JSON.stringify(info)}):\n${lines.join('\n')}`));
    });
  });

  const stop = async () => {
    process.removeListener('exit', lastResortKill);
    if (!exitInfo) await killTree(child.pid);
  };
  try {
    await ready;
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    pid: child.pid,
    port: chosenPort,
    url: `http://127.0.0.1:${chosenPort}/`,
    exited,
    stop,
    output: () => lines.join('\n'),
  };
}

module.exports = {
  profileDirs,
  makeProfileDirs,
  releaseProfileDirs,
  isolatedEnv,
  writeUserSettings,
  installExtensions,
  startCodeServer,
  RESTRICTED_MODE_SETTINGS,
};
