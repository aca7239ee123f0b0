// The code-server releases the real-VS-Code tests run on, and which one a process uses. code-server N.M.P
// bundles VS Code 1.M.P; each needs its own Node major, installed from npm (nodeRuntime.js).
//   - 1.139.1 (code-server 4.139.1, the default: `npm test` runs the whole suite here): the newest, with Copilot
//     Chat built in. Needs Node 24. Its VS Code takes @parcel/watcher from the npm registry and
//     @vscode/ripgrep-universal needs no download, so it installs offline as is: `npm install --ignore-scripts`,
//     then its postinstall under Node 24.
//   - 1.104.0 (code-server 4.104.0; `npm test` runs the smoke tests here): the oldest VS Code ctx supports
//     (`engines.vscode`, the first with the finalized language-model provider API). Needs Node 22; its
//     @vscode/ripgrep downloads `rg` from GitHub in its postinstall unless a cached download is seeded (install.js).
// CTX_TEST_VSCODE picks a release by its VS Code version (`1.104` or `1.104.0`); unset, the default.
'use strict';

/**
 * `testPayloadArgs`: what code-server needs so that the workbench honours the `payload` URL parameter's
 * extensionDevelopmentPath/extensionTestsPath. Since about 1.13x a built workbench reads them only when the server
 * runs with VS Code's `--enable-smoke-test-driver` (code-server passes it through with `--vscode-option`).
 * `separatePostinstall`: install with --ignore-scripts, then run code-server's postinstall alone (4.139: npm would
 * otherwise run it under the outer npm's settings); false runs every install script in one `npm install` (4.104:
 * its argon2 builds its binding in its own install script).
 * `userSettings`: added to every profile's User/settings.json. 1.139 ships Copilot Chat built in and, offline and
 * signed out, answers the first chat request with a "Sign in to use GitHub Copilot" dialog that blocks the page;
 * `chat.allowAnonymousAccess` set before the first start lets that request complete the chat setup instead.
 * @typedef {{ vscode: string, codeServer: string, node: string, testPayloadArgs: readonly string[],
 *   userSettings: Readonly<Record<string, unknown>>, separatePostinstall: boolean,
 *   ripgrepSeed?: { packageVersion: string, release: string } }} Release
 */

/** @type {readonly Release[]} */
const RELEASES = Object.freeze([
  Object.freeze({
    vscode: '1.139.1',
    codeServer: '4.139.1',
    node: '24.21.0',
    testPayloadArgs: Object.freeze(['--vscode-option', 'enable-smoke-test-driver']),
    userSettings: Object.freeze({ 'chat.allowAnonymousAccess': true }),
    separatePostinstall: true,
  }),
  Object.freeze({
    vscode: '1.104.0',
    codeServer: '4.104.0',
    node: '22.23.3',
    testPayloadArgs: Object.freeze([]),
    userSettings: Object.freeze({}),
    separatePostinstall: false,
    ripgrepSeed: Object.freeze({ packageVersion: '1.15.14', release: 'v13.0.0-13' }),
  }),
]);

/** What the scripts run on without CTX_TEST_VSCODE: the newest release. */
const DEFAULT_RELEASE = RELEASES[0];
/** The oldest VS Code ctx supports (`engines.vscode`): `npm test` runs the smoke tests on it too. */
const OLDEST_RELEASE = RELEASES[RELEASES.length - 1];

/** The release whose VS Code version is `wanted` (`1.104` or `1.104.0`); throws with the known ones otherwise. */
function findRelease(wanted) {
  const found = RELEASES.find((r) => r.vscode === wanted || r.vscode.startsWith(`${wanted}.`));
  if (!found) {
    throw new Error(`no code-server release is known for VS Code ${wanted}; known: ${RELEASES.map((r) => r.vscode).join(', ')}`);
  }
  return found;
}

/** The release this process tests on: CTX_TEST_VSCODE, or the default. */
function selectedRelease(env = process.env) {
  return env.CTX_TEST_VSCODE ? findRelease(env.CTX_TEST_VSCODE) : DEFAULT_RELEASE;
}

module.exports = { RELEASES, DEFAULT_RELEASE, OLDEST_RELEASE, findRelease, selectedRelease };
