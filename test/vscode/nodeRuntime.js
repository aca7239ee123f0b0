// The Node runtime that code-server needs. code-server 4.139 (VS Code 1.139) requires Node 24 and 4.104 Node 22
// (releases.js), while the project itself (unit tests, build) runs on the machine's Node 20. The npm package `node-<platform>-<arch>`
// ships the official Node binary and its C headers, so that Node comes from the npm registry like everything
// else, into its own cache folder keyed by version. Only code-server's install and code-server itself run on
// it (its bin/ first on PATH); the extension host code-server spawns inherits it.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { selectedRelease } = require('./releases');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.vscode-test');
/** Exact version, from the selected release: the cache is keyed by it, and runs stay reproducible. */
const NODE_RUNTIME_VERSION = selectedRelease().node;
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const NODE_DIR = path.join(CACHE, `node-${NODE_RUNTIME_VERSION}`);
/** The package folder: bin/node and include/node (the headers node-gyp builds against). */
const NODE_HOME = path.join(NODE_DIR, 'node_modules', NODE_PACKAGE);
const NODE_BIN = path.join(NODE_HOME, 'bin', 'node');

function log(message) {
  process.stdout.write(`[install] ${message}\n`);
}

/** The version the cached binary reports, or undefined when it is missing or does not run. */
function installedNodeVersion() {
  if (!fs.existsSync(NODE_BIN)) return undefined;
  const result = spawnSync(NODE_BIN, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

/** Installs the Node runtime into .vscode-test/node-<version>/ unless it is there; returns NODE_BIN. */
function ensureNodeRuntime() {
  if (installedNodeVersion() === NODE_RUNTIME_VERSION) return NODE_BIN;
  if (!['linux', 'darwin'].includes(process.platform)) {
    throw new Error(
      `no Node ${NODE_RUNTIME_VERSION} package is known for ${process.platform}; code-server needs Node ${NODE_RUNTIME_VERSION.split('.')[0]}`,
    );
  }
  log(`installing Node ${NODE_RUNTIME_VERSION} (npm package ${NODE_PACKAGE}) into ${path.relative(ROOT, NODE_DIR)}/ for code-server`);
  fs.rmSync(NODE_DIR, { recursive: true, force: true });
  fs.mkdirSync(NODE_DIR, { recursive: true });
  // Its own package.json, or npm would walk up and install into the project.
  fs.writeFileSync(
    path.join(NODE_DIR, 'package.json'),
    JSON.stringify({ name: 'ctx-test-node-runtime', private: true, description: 'Test cache, not a project dependency' }, null, 2) + '\n',
  );
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${NODE_PACKAGE}@${NODE_RUNTIME_VERSION}`], {
    cwd: NODE_DIR,
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  if (result.status !== 0 || installedNodeVersion() !== NODE_RUNTIME_VERSION) {
    throw new Error(`installing ${NODE_PACKAGE}@${NODE_RUNTIME_VERSION} failed (exit ${result.status})`);
  }
  return NODE_BIN;
}

/**
 * `env` with the Node runtime first on PATH, so `node` (and npm's own scripts) resolve to it, and node-gyp
 * builds against its headers (a user .npmrc may point `nodedir` elsewhere).
 */
function withNodeRuntime(env = process.env) {
  // Under `npm test` the outer npm's settings arrive as npm_config_* variables, among them the user agent
  // that names Node 20; code-server's postinstall reads the Node version from it. The inner npm makes its own.
  const own = Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_(config|lifecycle|package)_/i.test(key)));
  return {
    ...own,
    PATH: `${path.dirname(NODE_BIN)}${path.delimiter}${env.PATH || ''}`,
    npm_config_nodedir: NODE_HOME,
  };
}

module.exports = { ensureNodeRuntime, withNodeRuntime, NODE_BIN, NODE_RUNTIME_VERSION };
