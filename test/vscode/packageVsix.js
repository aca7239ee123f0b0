// Packages the ctx extension into a .vsix with vsce (its `vscode:prepublish` script builds it first).
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ROOT } = require('./install');

/** vsce flags: dependencies are bundled by esbuild. */
const VSCE_FLAGS = ['--no-dependencies'];

/** Where the harness looks for ctx's .vsix: .vscode-test/vsix/ctx-<version>.vsix. */
function defaultVsixPath() {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return path.join(ROOT, '.vscode-test', 'vsix', `${manifest.name}-${manifest.version}.vsix`);
}

function vsceCli() {
  return path.join(path.dirname(require.resolve('@vscode/vsce/package.json', { paths: [ROOT] })), 'vsce');
}

/** Builds and packages ctx into `outFile` (default: defaultVsixPath()); returns its path. */
function packageCtx(outFile) {
  const vsix = outFile || defaultVsixPath();
  fs.mkdirSync(path.dirname(vsix), { recursive: true });
  fs.rmSync(vsix, { force: true });
  const vsce = vsceCli();
  const result = spawnSync(process.execPath, [vsce, 'package', ...VSCE_FLAGS, '-o', vsix], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0 || !fs.existsSync(vsix)) {
    throw new Error(`vsce package failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  checkShippedFiles();
  return vsix;
}

/** Throws when the .vsix would ship files that are not the product (source maps, sources, tests). */
function checkShippedFiles() {
  const unwanted = listVsix(vsceCli()).filter((file) => file.endsWith('.map') || file.startsWith('src/') || file.startsWith('test/'));
  if (unwanted.length > 0) throw new Error(`The .vsix would ship files that are not the product: ${unwanted.join(', ')}`);
}

/** The files `vsce package` puts in the .vsix (after .vscodeignore). */
function listVsix(vsce) {
  const result = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) throw new Error(`vsce ls failed (exit ${result.status}):\n${result.stderr}`);
  return result.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

module.exports = { packageCtx, checkShippedFiles, defaultVsixPath };
