// TEST ONLY: the `npm start` demo of the "ctx test stand-in: scripted offline model".
//
// When code-server runs with CTX_STANDIN_DEMO=1 (test/vscode/start.js sets it), the stand-in waits until the
// workbench is up and ctx is active, and, if this workspace has no ctx session yet, plays a short scripted
// conversation with @ctx through the real Chat view: the stand-in model answers from the script below, ctx
// runs its real tool loop and compression (two big logs are offloaded, a small one stays in context), and
// a goal and a locked decision are set, and a final `/compress` summarizes the older history into a checkpoint. Then it opens ctx's Context tree and status report. Every answer is
// scripted: the stand-in is not a model, and the logs are fake (the big-result tool makes them up).
//
// Progress goes to the output channel "ctx demo (test stand-in)". When done it writes `demo.json` into the
// stand-in's workspace storage, which `start.js --check` waits for: {ok: true, played: true, sessionId, steps,
// lastQuery, ms}, {ok: false, played: true, error}, or {ok: true, played: false, reason} when the workspace
// already has a ctx session.
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const CTX_EXTENSION_ID = 'ctx-dev.ctx';
const BIG_RESULT_TOOL = 'ctxStandin_bigResult';
const MARKER_FILE = 'demo.json';
const LOCK_FILE = 'demo.lock';
/** A lock younger than this means another window is playing the demo right now. */
const LOCK_STALE_MS = 5 * 60 * 1000;

const BUILD_LOG_TAIL = [
  '2025-01-01T00:50:01.000Z [INFO] step 003001: tsc -p tsconfig.build.json',
  "2025-01-01T00:50:04.000Z [ERROR] src/module17.ts(42,7): error TS2322: Type 'LogLevel' is not assignable to type 'Level'.",
  "2025-01-01T00:50:04.000Z [ERROR] src/module17.ts(88,19): error TS2345: Argument of type 'string' is not assignable to parameter of type 'LogLevel'.",
  '2025-01-01T00:50:04.000Z [ERROR] Found 2 errors in the same file, starting at: src/module17.ts:42',
  '2025-01-01T00:50:05.000Z [ERROR] build #1842 failed in step "compile" (exit code 2) (stand-in log)',
];

const INSTALL_LOG_TAIL = [
  '2025-01-01T00:33:21.000Z [INFO] npm install (package-lock.json is out of date: regenerating it)',
  '2025-01-01T00:33:24.000Z [WARN] logkit@3.0.0: BREAKING: LogLevel is now a string union ("debug" | "info" | "warn" | "error"); numeric levels were removed',
  '2025-01-01T00:33:24.000Z [INFO] logkit 2.9.4 -> 3.0.0 (range "^2.9.0 || ^3.0.0" in package.json)',
  '2025-01-01T00:33:39.000Z [INFO] added 1204 packages, changed 37 packages in 15s',
  '2025-01-01T00:33:39.000Z [INFO] build #1842 step "install" done (stand-in log)',
];

const GREEN_INSTALL_TAIL = [
  '2025-01-01T00:01:21.000Z [INFO] npm ci (package-lock.json is up to date)',
  '2025-01-01T00:01:22.000Z [INFO] logkit 2.9.4 (locked)',
  '2025-01-01T00:01:29.000Z [INFO] build #1841 step "install" done (stand-in log)',
];

const FINDINGS = `**Found it.** The build breaks because a dependency moved under us, not because of our code.

- **Build log** (3,005 lines): \`tsc\` fails in \`src/module17.ts\` with two errors, both about \`LogLevel\`:
  - line 42, TS2322: \`LogLevel\` is not assignable to our \`Level\`;
  - line 88, TS2345: a \`string\` is passed where a \`LogLevel\` is expected.
- **Install log** (2,005 lines): this morning's run regenerated \`package-lock.json\` (\`npm install\` instead of
  \`npm ci\`), and **logkit went from 2.9.4 to 3.0.0**. Our range \`^2.9.0 || ^3.0.0\` allows that. logkit 3 turned
  \`LogLevel\` from a numeric enum into the string union \`"debug" | "info" | "warn" | "error"\`.

\`src/module17.ts\` still treats log levels as numbers (it compares them with \`<\` and maps them onto our own
numeric \`Level\` enum), so it stopped compiling the moment logkit 3 was installed.

Both logs were too big to keep: ctx offloaded them to files and left me a preview of each (their first and
last lines, which is where the errors are). I can read any part back with \`ctx_read_offloaded\` if we need more.`;

const GREEN_RUN = `Confirmed. Yesterday's green run (**#1841**) installed with \`npm ci\` from the committed lockfile, and
the lockfile pinned **logkit 2.9.4**. That log is short (about 80 lines), so it stayed in the context as it is;
only the two big logs were offloaded.

So why did the lockfile not protect us?

1. **The CI job changed, not the lockfile.** This morning's merge touched \`.github/workflows/ci.yml\` and
   replaced \`npm ci\` with \`npm install\` (it was meant to speed up caching). \`npm install\` is allowed to update
   the lockfile when it no longer matches \`package.json\`.
2. **\`package.json\` and the lockfile disagreed.** The same merge widened the range to \`^2.9.0 || ^3.0.0\`
   (a Renovate suggestion that was accepted without the lockfile update). With \`npm ci\` that mismatch would
   have failed the install loudly; with \`npm install\` it silently resolved to the newest match: 3.0.0.
3. **logkit 3.0.0 is a major release** with a breaking change to \`LogLevel\`, and we only use the type in one
   place, \`src/module17.ts\`, which is exactly where the compiler stops.

Nothing else in the dependency tree changed in a way that matters: the other 36 updated packages are patch
releases of dev tools, and the build log shows every module except \`module17\` compiling as before.`;

const FIX = `Two changes: make the CI install strict again, and make \`module17\` independent of how logkit spells
its levels. Then we can take logkit 3 deliberately instead of by accident.

**1. CI: back to \`npm ci\`** (fails when \`package.json\` and the lockfile disagree):

\`\`\`diff
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -21,7 +21,7 @@ jobs:
       - uses: actions/setup-node@v4
         with:
           node-version: 20
           cache: npm
-      - run: npm install
+      - run: npm ci
       - run: npm run build
       - run: npm test
\`\`\`

**2. \`src/module17.ts\`: map logkit's levels explicitly**, so a string union and the old numeric enum both work:

\`\`\`diff
--- a/src/module17.ts
+++ b/src/module17.ts
@@ -1,9 +1,24 @@
-import { LogLevel, createLogger } from 'logkit';
+import { createLogger, type LogLevel } from 'logkit';
 import { Level } from './levels';

-function toLevel(level: LogLevel): Level {
-  return level as Level;
+const LEVELS: Record<string, Level> = {
+  debug: Level.Debug,
+  info: Level.Info,
+  warn: Level.Warn,
+  error: Level.Error,
+};
+
+/** logkit 2 used numbers, logkit 3 uses names: accept both. */
+export function toLevel(level: LogLevel | number): Level {
+  if (typeof level === 'number') return level as Level;
+  const mapped = LEVELS[level];
+  if (mapped === undefined) throw new Error(\`unknown log level \${String(level)}\`);
+  return mapped;
+}
+
+export function parseLevel(value: string | undefined): LogLevel {
+  const name = (value ?? 'info').toLowerCase();
+  return (name in LEVELS ? name : 'info') as LogLevel;
 }
@@ -85,7 +100,7 @@ export function makeLogger(options: LoggerOptions) {
   const logger = createLogger({
     name: options.name,
-    level: process.env.LOG_LEVEL,
+    level: parseLevel(process.env.LOG_LEVEL),
     transport: options.transport,
   });
\`\`\`

**3. \`package.json\`:** keep \`"logkit": "^3.0.0"\` only (we now support 3), run \`npm install\` once locally and
commit the regenerated lockfile together with the code change, so CI's \`npm ci\` installs exactly what we tested.

I would also add a unit test for \`toLevel\`/\`parseLevel\` with both numeric and named levels and an unknown
\`LOG_LEVEL\` value, so the next major release of logkit fails in a test instead of in the compiler.`;

const PR_DESCRIPTION = `**Fix the CI build: support logkit 3 and install with \`npm ci\` again**

The build on main has failed since #1842: CI switched to \`npm install\`, which regenerated the lockfile and
pulled **logkit 3.0.0** (allowed by \`^2.9.0 || ^3.0.0\`). logkit 3 makes \`LogLevel\` a string union, and
\`src/module17.ts\` treated it as a number (TS2322 at line 42, TS2345 at line 88).

Changes:
- CI installs with \`npm ci\` again, so a lockfile that does not match \`package.json\` fails the install.
- \`src/module17.ts\` maps logkit's levels explicitly (\`toLevel\`, \`parseLevel\`); numeric and named levels work.
- \`package.json\` requires \`logkit@^3.0.0\`; the lockfile is regenerated and committed with the change.
- New unit tests for the level mapping, including an unknown \`LOG_LEVEL\`.

Evidence: build #1842's compile and install logs (kept by ctx as offloaded files) and #1841's install log.`;

/** The conversation: each step is one @ctx query and the replies the stand-in gives to the requests it causes. */
const STEPS = [
  {
    query: 'The CI build on main has been failing since this morning. Find out why.',
    replies: [
      [
        { text: "I'll start with the log of the failing CI run (#1842)." },
        { toolCall: { callId: 'ci-build-log', name: BIG_RESULT_TOOL, input: { lines: 3000, tail: BUILD_LOG_TAIL } } },
      ],
      [
        {
          text:
            'The compile step fails with two type errors in `src/module17.ts`, both about `LogLevel`. ' +
            "That file did not change this morning, so the type it uses must have. Let me read the same run's install log.",
        },
        { toolCall: { callId: 'ci-install-log', name: BIG_RESULT_TOOL, input: { lines: 2000, tail: INSTALL_LOG_TAIL } } },
      ],
      FINDINGS,
    ],
  },
  { query: '/goal Get main green again, and take logkit 3 on purpose later', command: true },
  { query: '/decide CI installs with npm ci from the committed lockfile', command: true },
  {
    query: "Was yesterday's green run really on logkit 2.9? And why didn't the lockfile protect us?",
    replies: [
      [
        { text: "Yesterday's install log (#1841) is short; I'll read it whole." },
        { toolCall: { callId: 'green-install-log', name: BIG_RESULT_TOOL, input: { lines: 80, tail: GREEN_INSTALL_TAIL } } },
      ],
      GREEN_RUN,
    ],
  },
  {
    query: 'Propose a fix, with the patch.',
    replies: [FIX],
  },
  {
    query: 'Write the PR description.',
    replies: [PR_DESCRIPTION],
  },
  { query: '/compress the root cause and the fix', command: true },
];

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(what, probe, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

function hasSessions(storageRoot) {
  const dir = path.join(storageRoot, 'sessions');
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
}

/** Takes the lock in `dir`; false when another window holds a fresh one. */
function takeLock(dir) {
  const file = path.join(dir, LOCK_FILE);
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    if (Date.now() - fs.statSync(file).mtimeMs < LOCK_STALE_MS) return false;
    fs.writeFileSync(file, String(process.pid));
    return true;
  }
}

/**
 * Plays the demo conversation in the current Chat view (a new chat starts a new session): the scripted
 * replies are queued on the stand-in `model` step by step, and each step waits until ctx is idle again.
 * `api` is ctx's extension API, `log` an output channel.
 */
async function playSteps(api, model, log) {
  for (const [i, step] of STEPS.entries()) {
    log.info(`step ${i + 1}/${STEPS.length}: @ctx ${step.query}`);
    if (step.command) {
      // Slash commands answer without the model: give the request time to start, then wait for ctx.
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@ctx ${step.query}` });
      await sleep(1500);
      await api.whenIdle();
      continue;
    }
    model.queue(step.replies);
    const before = model.requests.length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@ctx ${step.query}` });
    try {
      await waitUntil(`@ctx to send "${step.query}" to the model`, () => model.requests.length > before, 30000);
      await waitUntil(`@ctx to use every scripted reply for "${step.query}"`, () => model.script.length === 0, 60000);
    } catch (e) {
      model.script.length = 0;
      throw e;
    }
    await api.whenIdle();
    await sleep(300);
  }
}

/**
 * The demo conversation on request (tests): plays it in a new chat whatever the workspace holds, and
 * returns the id of the session it made.
 */
async function playDemoNow(model) {
  const ctx = vscode.extensions.getExtension(CTX_EXTENSION_ID);
  if (!ctx) throw new Error(`${CTX_EXTENSION_ID} is not installed`);
  const api = await ctx.activate();
  await api.whenIdle();
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  const log = vscode.window.createOutputChannel('ctx demo (test stand-in)', { log: true });
  try {
    await playSteps(api, model, log);
  } finally {
    log.dispose();
  }
  return api.currentSessionId();
}

/**
 * Plays the demo once per workspace. `model` is the stand-in model (its script queue and its record of
 * requests).
 */
async function runDemo(context, model) {
  const log = vscode.window.createOutputChannel('ctx demo (test stand-in)', { log: true });
  context.subscriptions.push(log);
  const dir = (context.storageUri || context.globalStorageUri).fsPath;
  const started = Date.now();
  let locked = false;
  let status;
  const finish = (result) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, MARKER_FILE),
      JSON.stringify({ ...result, at: new Date().toISOString(), ms: Date.now() - started }, null, 2) + '\n',
    );
  };
  try {
    const ctx = vscode.extensions.getExtension(CTX_EXTENSION_ID);
    if (!ctx) throw new Error(`${CTX_EXTENSION_ID} is not installed`);
    // ctx activates on onStartupFinished: once it is active, the workbench is up and restored.
    await waitUntil('ctx to activate', () => ctx.isActive, 120000);
    const api = await ctx.activate();
    if (!api) throw new Error('ctx did not start (see its output channel)');
    if (api.currentSessionId() || hasSessions(api.storageRoot)) {
      log.info(`this workspace already has a ctx session in ${api.storageRoot}: not playing the demo again`);
      // A browser that has not opened this workspace before starts with the Explorer: show the demo's views.
      await vscode.commands.executeCommand('ctx.showTree');
      await vscode.commands.executeCommand('workbench.action.chat.open');
      finish({ ok: true, played: false, reason: 'this workspace already has a ctx session' });
      return;
    }
    fs.mkdirSync(dir, { recursive: true });
    if (!takeLock(dir)) {
      log.info('another window is playing the demo');
      return;
    }
    locked = true;
    status = vscode.window.setStatusBarMessage('$(play) ctx demo: the offline stand-in model is playing a scripted conversation…');
    await sleep(500);
    // VS Code resolves the models of extensions on the first chat request; on 1.139 a request sent before that
    // gets "Language model unavailable". Asking for them does it now.
    await vscode.lm.selectChatModels();

    await playSteps(api, model, log);

    const sessionId = api.currentSessionId();
    await vscode.commands.executeCommand('ctx.showTree');
    await vscode.commands.executeCommand('ctx.showStatus');
    log.info(`done in ${Date.now() - started} ms: session ${sessionId}`);
    finish({ ok: true, played: true, sessionId, steps: STEPS.length, lastQuery: STEPS[STEPS.length - 1].query });
  } catch (e) {
    const message = e && e.message ? e.message : String(e);
    log.error(`the demo failed: ${message}`);
    void vscode.window.showErrorMessage(`ctx demo (test stand-in): ${message}`);
    finish({ ok: false, played: true, error: message });
  } finally {
    if (status) status.dispose();
    if (locked) fs.rmSync(path.join(dir, LOCK_FILE), { force: true });
  }
}

module.exports = { runDemo, playDemoNow, MARKER_FILE };
