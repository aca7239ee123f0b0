// The README's desktop install, run as a user runs it: its commands, word for word, in a terminal. vsce asks
// questions only in a terminal (a missing `repository` field: "Do you want to continue? [y/N]"), and answers them
// itself without one, so the commands run in a pseudo-terminal (`script`), and every question gets Enter, the
// answer a user who does not read it gives. The .vsix they write is the one the integration suite installs.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ROOT } = require('./install');
const { checkShippedFiles, defaultVsixPath } = require('./packageVsix');

/** The heading of the README's desktop install section. */
const SECTION = /^#+ .*desktop VS Code/m;

/**
 * The shell lines of the first `sh` block after the desktop install heading: the packaging line(s) and the one that
 * installs the .vsix into VS Code (`code --install-extension <file>`), and the .vsix file they name.
 */
function readmeInstallCommands(readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')) {
  const heading = SECTION.exec(readme);
  if (!heading) throw new Error('README.md has no desktop install section (a heading with "desktop VS Code")');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(heading.index));
  if (!block) throw new Error('the desktop install section of README.md has no ```sh block');
  const lines = block[1]
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const install = lines.find((l) => /^code --install-extension \S+\.vsix$/.test(l));
  if (!install) throw new Error('the desktop install block has no `code --install-extension <file>.vsix` line');
  const vsix = install.split(/\s+/).pop();
  return { build: lines.filter((l) => l !== install), install, vsix };
}

/** The environment of a user's terminal: the machine's, without CI's marker (tools behave differently under CI). */
function userEnv() {
  const env = { ...process.env };
  delete env.CI;
  return env;
}

/** Runs `line` in a pseudo-terminal at the repository's root, answering Enter to anything it asks. */
function runInTerminal(line) {
  const run = spawnSync('script', ['-qec', line, '/dev/null'], {
    cwd: ROOT,
    input: '\n'.repeat(20),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: userEnv(),
  });
  if (run.error && run.error.code === 'ENOENT') throw new Error('`script` (util-linux) is needed to run the README in a terminal');
  if (run.error) throw run.error;
  return { status: run.status, output: run.stdout };
}

/**
 * Runs the README's packaging lines as a user would, checks that they wrote the .vsix without asking anything, and
 * moves it where the harness looks (.vscode-test/vsix/). Returns its path; throws with the terminal's last lines.
 */
function packageAsReadmeSays() {
  const { build, vsix } = readmeInstallCommands();
  const written = path.join(ROOT, vsix);
  fs.rmSync(written, { force: true });
  for (const line of build) {
    process.stdout.write(`$ ${line}\n`);
    const { status, output } = runInTerminal(line);
    const tail = output.split('\n').slice(-15).join('\n');
    if (/\[y\/N\]/i.test(output)) throw new Error(`\`${line}\` asked a question in the terminal:\n${tail}`);
    if (status !== 0) throw new Error(`\`${line}\` exited with ${status}:\n${tail}`);
  }
  if (!fs.existsSync(written)) throw new Error(`the README's commands wrote no ${vsix}`);
  checkShippedFiles();
  const target = defaultVsixPath();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.renameSync(written, target);
  return target;
}

module.exports = { packageAsReadmeSays, readmeInstallCommands };
