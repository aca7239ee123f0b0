// Packages the test-only stand-in extension (test/standin) into a .vsix, cached by the hash of its files:
// code-server's --install-extension takes a .vsix or a Marketplace id, not a folder.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const STANDIN_DIR = path.join(ROOT, 'test', 'standin');
const OUT_DIR = path.join(ROOT, '.vscode-test', 'standin');
/** The stand-in's extension id, for --enable-proposed-api. */
const STANDIN_ID = 'ctx-test.standin-model';

/** Path of the vsce CLI installed as a dev dependency. */
function vsceCli() {
  return path.join(path.dirname(require.resolve('@vscode/vsce/package.json', { paths: [ROOT] })), 'vsce');
}

/** Returns the path of an up-to-date stand-in .vsix, packaging it when its sources changed. */
function packageStandin() {
  const manifest = JSON.parse(fs.readFileSync(path.join(STANDIN_DIR, 'package.json'), 'utf8'));
  const hash = crypto.createHash('sha256');
  for (const file of ['package.json', ...manifest.files].sort()) {
    const full = path.join(STANDIN_DIR, file);
    if (fs.existsSync(full)) hash.update(file).update(fs.readFileSync(full));
  }
  const vsix = path.join(OUT_DIR, `${STANDIN_ID}-${hash.digest('hex').slice(0, 12)}.vsix`);
  if (fs.existsSync(vsix)) return vsix;
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const old of fs.readdirSync(OUT_DIR)) fs.rmSync(path.join(OUT_DIR, old), { force: true });
  const result = spawnSync(
    process.execPath,
    [vsceCli(), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--allow-star-activation', '-o', vsix],
    { cwd: STANDIN_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.status !== 0 || !fs.existsSync(vsix)) {
    throw new Error(`packaging the stand-in failed:\n${result.stdout}\n${result.stderr}`);
  }
  return vsix;
}

module.exports = { packageStandin, STANDIN_ID, STANDIN_DIR };
