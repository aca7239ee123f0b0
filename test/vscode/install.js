#!/usr/bin/env node
// Installs what the real-VS-Code tests need, and nothing when it is all there already:
//   - Debian packages: chromium (shows the workbench), ripgrep (VS Code's search), libkrb5-dev (a native
//     module of VS Code builds against it), and the compiler, make and python that node-gyp builds with;
//   - the Node that the selected code-server needs, from npm (nodeRuntime.js); the project stays on the machine's Node;
//   - the selected code-server (releases.js: 4.139.1 = VS Code 1.139.1 by default, 4.104.0 = VS Code 1.104.0 with
//     CTX_TEST_VSCODE=1.104) into .vscode-test/code-server-<version>/, its own package folder, never a project
//     dependency. It is installed with --ignore-scripts, then its postinstall (which builds VS Code's native
//     modules) runs with that Node first on PATH and node-gyp pointed at its headers.
// code-server 4.104 bundles @vscode/ripgrep, whose postinstall downloads `rg` from GitHub, which these machines
// cannot reach. That postinstall first looks for a cached download in os.tmpdir(); we put a tar.gz holding
// Debian's /usr/bin/rg there, so the install succeeds offline. 4.139 needs no such seed.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ensureNodeRuntime, withNodeRuntime, NODE_BIN, NODE_RUNTIME_VERSION } = require('./nodeRuntime');
const { RELEASES, selectedRelease } = require('./releases');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.vscode-test');
const RELEASE = selectedRelease();
const CODE_SERVER_VERSION = RELEASE.codeServer;
/** The VS Code version that code-server bundles. */
const VSCODE_VERSION = RELEASE.vscode;
/** Keyed by version: another version installs beside it, and a folder never holds a mix of two. */
const CODE_SERVER_DIR = path.join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
/** Written last, so a half-finished install is not mistaken for a complete one. */
const INSTALLED_MARKER = path.join(CODE_SERVER_DIR, 'installed.json');
const DEBIAN_PACKAGES = [
  { name: 'chromium', probe: '/usr/bin/chromium' },
  { name: 'ripgrep', probe: '/usr/bin/rg' },
  { name: 'libkrb5-dev', probe: '/usr/include/krb5.h' },
  { name: 'g++', probe: '/usr/bin/g++' },
  { name: 'make', probe: '/usr/bin/make' },
  { name: 'python3', probe: '/usr/bin/python3' },
];

/** The installed code-server package. */
const CODE_SERVER_PACKAGE = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server');
/** Absolute path of the code-server launcher once installed; run it with NODE_BIN. */
const CODE_SERVER_BIN = path.join(CODE_SERVER_PACKAGE, 'out', 'node', 'entry.js');

function log(message) {
  process.stdout.write(`[install] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  }
}

function isDebianPackageInstalled(name) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

function ensureDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter((p) => !fs.existsSync(p.probe) && !isDebianPackageInstalled(p.name));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    process.stderr.write(
      `[install] Missing Debian packages: ${names.join(' ')}\n` +
        `[install] Install them as root, then run this again:\n` +
        `    sudo apt-get update && sudo apt-get install -y ${names.join(' ')}\n`,
    );
    process.exit(2);
  }
  log(`installing Debian packages: ${names.join(' ')} (about a minute)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', ...names], { env });
}

function installedCodeServerVersion() {
  try {
    const marker = JSON.parse(fs.readFileSync(INSTALLED_MARKER, 'utf8'));
    return fs.existsSync(CODE_SERVER_BIN) && marker.node === NODE_RUNTIME_VERSION ? marker.version : undefined;
  } catch {
    return undefined;
  }
}

/** The file name @vscode/ripgrep's postinstall looks for in its cache folder. */
function ripgrepAssetName(seed) {
  const arch = { x64: 'x86_64', arm64: 'aarch64' }[process.arch];
  if (!arch) throw new Error(`no ripgrep asset name known for ${process.arch}`);
  return `ripgrep-${seed.release}-${arch}-unknown-linux-musl.tar.gz`;
}

/** Places a tar.gz of Debian's rg where @vscode/ripgrep's postinstall finds it instead of downloading. */
function seedRipgrepCache(tmpDir, seed) {
  const cacheDir = path.join(tmpDir, `vscode-ripgrep-cache-${seed.packageVersion}`);
  const archive = path.join(cacheDir, ripgrepAssetName(seed));
  if (fs.existsSync(archive)) return;
  fs.mkdirSync(cacheDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(tmpDir, 'rg-staging-'));
  fs.copyFileSync('/usr/bin/rg', path.join(staging, 'rg'));
  fs.chmodSync(path.join(staging, 'rg'), 0o755);
  run('tar', ['-czf', archive, '-C', staging, 'rg']);
  fs.rmSync(staging, { recursive: true, force: true });
}

/** Removes code-server folders of versions no longer in releases.js (and of the unversioned layout) from the cache. */
function removeOtherCodeServers() {
  if (!fs.existsSync(CACHE)) return;
  const known = new Set(RELEASES.map((r) => `code-server-${r.codeServer}`));
  for (const entry of fs.readdirSync(CACHE)) {
    if ((entry === 'code-server' || entry.startsWith('code-server-')) && !known.has(entry)) {
      log(`removing ${entry}/ (a code-server version no longer tested)`);
      fs.rmSync(path.join(CACHE, entry), { recursive: true, force: true });
    }
  }
}

function ensureCodeServer() {
  if (installedCodeServerVersion() === CODE_SERVER_VERSION) return;
  ensureNodeRuntime();
  removeOtherCodeServers();
  log(
    `installing code-server@${CODE_SERVER_VERSION} (VS Code ${VSCODE_VERSION}) into ${path.relative(ROOT, CODE_SERVER_DIR)}/ ` +
      "(a few minutes: VS Code's native modules are built)",
  );
  fs.rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  fs.mkdirSync(CODE_SERVER_DIR, { recursive: true });
  // Its own package.json, or npm would walk up and install into the project.
  fs.writeFileSync(
    path.join(CODE_SERVER_DIR, 'package.json'),
    JSON.stringify({ name: 'ctx-test-code-server', private: true, description: 'Test cache, not a project dependency' }, null, 2) + '\n',
  );
  const tmpDir = path.join(CACHE, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  if (RELEASE.ripgrepSeed) seedRipgrepCache(tmpDir, RELEASE.ripgrepSeed);
  // npm runs on the release's Node (first on PATH), so code-server's postinstall sees the Node it requires (it
  // reads the major from npm's user agent) and builds VS Code's native modules for it. `yes`: node-pty's
  // postinstall fetches node-gyp with npx.
  const env = { ...withNodeRuntime({ ...process.env, TMPDIR: tmpDir }), npm_config_yes: 'true', npm_config_unsafe_perm: 'true' };
  const spec = `code-server@${CODE_SERVER_VERSION}`;
  if (RELEASE.separatePostinstall) {
    run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', spec], { cwd: CODE_SERVER_DIR, env });
    if (!fs.existsSync(CODE_SERVER_BIN)) throw new Error(`code-server did not install where expected (${CODE_SERVER_BIN} is missing)`);
    log(`building code-server's VS Code for Node ${NODE_RUNTIME_VERSION} (its postinstall)`);
    run('npm', ['run', 'postinstall'], { cwd: CODE_SERVER_PACKAGE, env });
  } else {
    run('npm', ['install', '--unsafe-perm', '--no-audit', '--no-fund', spec], { cwd: CODE_SERVER_DIR, env });
  }
  if (!fs.existsSync(CODE_SERVER_BIN)) throw new Error(`code-server did not install where expected (${CODE_SERVER_BIN} is missing)`);
  const vscodeModules = path.join(CODE_SERVER_PACKAGE, 'lib', 'vscode', 'node_modules');
  if (!fs.existsSync(vscodeModules)) throw new Error(`code-server's postinstall left no ${vscodeModules}`);
  // A dependency whose install script did not run (a missing native binding) shows here, not in the first test run.
  const check = spawnSync(NODE_BIN, [CODE_SERVER_BIN, '--version'], { env, encoding: 'utf8', timeout: 60000 });
  if (check.status !== 0) {
    throw new Error(
      `the installed code-server does not start (\`code-server --version\` exited with ${check.status}):\n${check.stderr || check.stdout}`,
    );
  }
  fs.writeFileSync(
    INSTALLED_MARKER,
    JSON.stringify({ version: CODE_SERVER_VERSION, vscode: VSCODE_VERSION, node: NODE_RUNTIME_VERSION }) + '\n',
  );
}

/** Makes sure everything is installed; returns the paths the harness needs. */
function install() {
  ensureDebianPackages();
  ensureNodeRuntime();
  ensureCodeServer();
  return { codeServer: CODE_SERVER_BIN, node: NODE_BIN, chromium: '/usr/bin/chromium' };
}

module.exports = { install, CODE_SERVER_BIN, CODE_SERVER_VERSION, VSCODE_VERSION, NODE_BIN, ROOT, CACHE };

if (require.main === module) {
  try {
    const started = Date.now();
    install();
    log(
      `ready: code-server ${CODE_SERVER_VERSION} (VS Code ${VSCODE_VERSION}) on Node ${NODE_RUNTIME_VERSION}, chromium (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  } catch (e) {
    process.stderr.write(`[install] failed: ${e && e.message ? e.message : e}\n`);
    process.exit(1);
  }
}
