// Packages the test-only extensions in test/extensions/<name>/ (the stand-in model, and any other extension a
// test needs beside ctx) into .vsix files, cached by the hash of their files: code-server's
// --install-extension takes a .vsix or a Marketplace id, not a folder. An extension whose manifest lists
// `enabledApiProposals` gets them: the harness starts code-server with --enable-proposed-api for its id.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const EXTENSIONS_DIR = path.join(ROOT, 'test', 'extensions');
const OUT_DIR = path.join(ROOT, '.vscode-test', 'test-extensions');
/** The stand-in's folder name and extension id. */
const STANDIN = 'standin';
const STANDIN_ID = 'ctx-test.standin-model';

/** Path of the vsce CLI installed as a dev dependency. */
function vsceCli() {
  return path.join(path.dirname(require.resolve('@vscode/vsce/package.json', { paths: [ROOT] })), 'vsce');
}

/** The folder names under test/extensions/ that hold an extension manifest, sorted. */
function testExtensionNames() {
  return fs
    .readdirSync(EXTENSIONS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(EXTENSIONS_DIR, e.name, 'package.json')))
    .map((e) => e.name)
    .sort();
}

/**
 * Packages test/extensions/<name> when its files changed; returns { name, id, vsix, proposals }. The manifest's
 * `files` lists what goes in (and what the cache hash covers).
 */
function packageTestExtension(name) {
  const dir = path.join(EXTENSIONS_DIR, name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  if (!Array.isArray(manifest.files)) throw new Error(`test/extensions/${name}/package.json needs a "files" list`);
  const hash = crypto.createHash('sha256');
  for (const file of ['package.json', ...manifest.files].sort()) {
    const full = path.join(dir, file);
    if (fs.existsSync(full)) hash.update(file).update(fs.readFileSync(full));
  }
  const proposals = Array.isArray(manifest.enabledApiProposals) ? manifest.enabledApiProposals : [];
  const folder = path.join(OUT_DIR, name);
  const vsix = path.join(folder, `${id}-${hash.digest('hex').slice(0, 12)}.vsix`);
  if (fs.existsSync(vsix)) return { name, id, vsix, proposals };
  fs.mkdirSync(folder, { recursive: true });
  for (const old of fs.readdirSync(folder)) fs.rmSync(path.join(folder, old), { force: true });
  const result = spawnSync(
    process.execPath,
    [vsceCli(), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--allow-star-activation', '-o', vsix],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.status !== 0 || !fs.existsSync(vsix)) {
    throw new Error(`packaging test/extensions/${name} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return { name, id, vsix, proposals };
}

/** Every test extension, packaged. */
function packageTestExtensions() {
  return testExtensionNames().map(packageTestExtension);
}

/** The ids that need --enable-proposed-api. */
function proposedApiIds(packaged) {
  return packaged.filter((p) => p.proposals.length > 0).map((p) => p.id);
}

module.exports = { packageTestExtension, packageTestExtensions, proposedApiIds, testExtensionNames, STANDIN, STANDIN_ID, EXTENSIONS_DIR };
