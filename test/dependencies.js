// The project's own packages for `npm start` and `npm test`: installed with `npm ci` when node_modules is missing or
// does not hold what package-lock.json names, so that either command is the only one a fresh clone needs.
// Node built-ins only: this runs before anything is installed.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');

function readPackages(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')).packages;
  } catch {
    return undefined;
  }
}

/**
 * Why node_modules must be installed again, or undefined when it holds what the lock file names. npm keeps a record of
 * what it installed in node_modules/.package-lock.json: every package of the lock file must be there in its version
 * (a package marked optional may be absent: it is for another platform), and nothing else.
 */
function staleReason(root = ROOT) {
  const locked = readPackages(path.join(root, 'package-lock.json'));
  if (!locked) throw new Error('package-lock.json is missing or unreadable: it names what to install');
  if (!fs.existsSync(path.join(root, 'node_modules'))) return 'node_modules is missing';
  const installed = readPackages(path.join(root, 'node_modules', '.package-lock.json'));
  if (!installed) return "node_modules has no record of npm's install";
  for (const [name, entry] of Object.entries(locked)) {
    if (name === '') continue;
    const have = installed[name];
    if (!have && !entry.optional) return `${name.replace(/^node_modules\//, '')} is not installed`;
    if (have && have.version !== entry.version)
      return `${name.replace(/^node_modules\//, '')} is ${have.version}, package-lock.json says ${entry.version}`;
  }
  const extra = Object.keys(installed).find((name) => !(name in locked));
  return extra ? `${extra.replace(/^node_modules\//, '')} is installed but not in package-lock.json` : undefined;
}

/** Runs `npm ci` when node_modules is missing or stale, with one line saying why; throws when it fails. */
function ensureDependencies(root = ROOT) {
  const reason = staleReason(root);
  if (!reason) return false;
  process.stdout.write(`[setup] ${reason}: installing the project's packages (npm ci, about two minutes)\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`npm ci failed (exit ${run.status ?? run.signal}): see its output above`);
  return true;
}

module.exports = { ensureDependencies, staleReason };
