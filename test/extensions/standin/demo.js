// TEST ONLY: the `npm start` demo of the "ctx test stand-in: scripted offline model".
//
// When code-server runs with CTX_STANDIN_DEMO=1 (test/vscode/start.js sets it), the stand-in waits until the
// workbench is up and ctx is active and, once per demo profile (whatever the number of browser tabs or windows),
// plays a short scripted session with @ctx through the real Chat view, on a small project it writes into the
// workspace (demoProject.js): the stand-in model answers from the script below and reads the project's real files with
// its file tool; ctx runs its real tool loop and compression (the big install log is offloaded, the short logs and
// the source stay in the context), a goal and a locked decision are set, and a final `/compress` summarizes the older
// history into a checkpoint with ctx's own summarizer (the demo profile sets `ctx.summarizer.model` to
// `deterministic`). Then it opens ctx's Context tree and status report. Every answer is scripted: the stand-in is not
// a model.
//
// The demo is played once per profile: a marker in the stand-in's global storage (`demo-played.json`), taken before
// the first question, tells every other window that it is played or being played. start.js removes it when the
// workspace changes (another port). Progress goes to the output channel "ctx demo (test stand-in)". When done it
// writes `demo.json` into the stand-in's workspace storage, which `start.js --check` waits for: {ok: true, played:
// true, sessionId, steps, lastQuery, ms}, {ok: false, played: true, error}, or {ok: true, played: false, reason}.
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { DEMO_PROJECT, demoProjectFiles } = require('./demoProject');

const CTX_EXTENSION_ID = 'ctx-dev.ctx';
const READ_FILE_TOOL = 'ctxStandin_readFile';
const MARKER_FILE = 'demo.json';
/** In the stand-in's global storage: the demo was played in this profile, or is being played (one demo session). */
const PLAYED_FILE = 'demo-played.json';

const OVERVIEW = `**orders-api** is a small Fastify service in front of PostgreSQL. How it fits together:

- **\`src/server.ts\`** builds the app: a \`pg\` \`Pool\` of 10 connections from \`DATABASE_URL\`, Fastify with its own
  logger switched off, the order routes, and \`/health\`. It listens on \`PORT\` (8080 by default).
- **\`src/routes/orders.ts\`** has the two endpoints, \`POST /orders\` and \`GET /orders/:id\` (I have not read it yet).
- **\`src/logger.ts\`** wraps the \`logkit\` library. \`makeLogger\` creates a logkit logger named after the service,
  with its level from \`LOG_LEVEL\`, and returns five functions: \`debug\`, \`info\`, \`error\`, and \`request\`, which
  logs one line per response.
- **\`src/levels.ts\`** defines our own numeric \`Level\` enum (Debug 10, Info 20, Warn 30, Error 40), so that levels
  can be compared with \`<\`.

**Where logging happens:**
1. Every response goes through the \`onResponse\` hook in \`server.ts\`, which calls \`log.request(method, url,
   status, ms)\`. \`request\` picks the level itself: Error for a 5xx, Warn when the request took longer than
   \`SLOW_REQUEST_MS\` (500 ms by default), Info otherwise.
2. Errors that reach Fastify's error handler are logged with \`log.error\`, with the error object as a field, and the
   client gets \`internal error\` unless the error carries its own status code.
3. \`log.debug\` is only written when logkit's current level allows it: \`isEnabled\` compares logkit's level with
   ours after \`toLevel\` casts one into the other. That cast only works while logkit's levels are numbers.

\`package.json\` allows logkit \`^2.9.0 || ^3.0.0\`, so either major version can be installed. Worth keeping in mind:
the logger treats logkit's \`LogLevel\` as a number in three places (\`toLevel\`, \`isEnabled\`, and the cast in
\`request\`).`;

const ROUTES = `\`src/routes/orders.ts\` validates with **zod** and writes in one transaction:

- **\`POST /orders\`** parses the body with the \`NewOrder\` schema: \`customerId\` must be a UUID, \`items\` holds 1 to
  100 entries of a non-empty \`sku\` and a positive integer \`quantity\`, and \`note\` is optional, at most 500
  characters. An invalid body gets **400** \`{ error: 'invalid order', issues }\` with zod's issues, before any
  database work.
- A valid order takes one client from the pool, runs \`BEGIN\`, inserts the order and then each item, and
  \`COMMIT\`s. It answers **201** with the new id and logs \`order created\` at debug level.
- **On a database error** (a foreign key on \`customer_id\`, a lost connection) the \`catch\` runs \`ROLLBACK\`, so no
  half-written order stays, and re-throws. The client is always released in \`finally\`. The error then reaches
  the error handler in \`server.ts\`: it is logged with \`log.error\`, and the client gets **500** \`internal error\`
  (pg errors have no \`statusCode\`), so no SQL detail leaks.
- **\`GET /orders/:id\`** reads the order and its items in two queries and answers **404** when there is none. It
  does not check that \`id\` is a UUID, so a malformed id reaches PostgreSQL and comes back as a 500 (\`invalid input
  syntax for type uuid\`). That is worth a follow-up, but it is not related to the build.

Nothing in the routes touches logkit directly: they only use the functions \`makeLogger\` returns.`;

const SCHEMA = `The schema is in \`migrations/001_orders.sql\`, three tables:

- **\`customers\`**: a \`uuid\` id made by \`gen_random_uuid()\` (hence \`pgcrypto\`), a unique \`email\`, \`created_at\`.
- **\`orders\`**: a \`uuid\` id, \`customer_id\` referencing \`customers\`, an optional \`note\` of at most 500 characters
  (the same limit as the zod schema, so the database and the API agree), a \`status\` that is one of \`open\`, \`paid\`,
  \`shipped\` or \`cancelled\` (\`open\` by default), and \`created_at\`. An index on \`(customer_id, created_at DESC)\`
  serves "the latest orders of a customer".
- **\`order_items\`**: \`(order_id, sku)\` is the primary key, so **an order cannot hold the same sku twice**;
  \`quantity\` must be positive; deleting an order deletes its items (\`ON DELETE CASCADE\`).

Two things follow for the API:
1. A \`POST /orders\` with an unknown \`customerId\` passes zod (it is a valid UUID) and fails on the foreign key:
   the transaction rolls back and the client gets a 500, where a 422 would say what is wrong.
2. Two items with the same \`sku\` fail on the primary key the same way. The zod schema does not check for it.

Neither is new, and neither is what breaks CI, but both are cheap to fix in the route: look the customer up first,
and add a \`.refine\` on \`items\` that rejects repeated skus.`;

const TESTS = `\`test/orders.test.ts\` runs the real server against a real database (\`resetDatabase\` and \`seedCustomer\` from
\`test/db.ts\`), with Fastify's \`inject\`, so no port is opened. It has three tests, all on \`POST /orders\`:

1. **creates an order with its items**: a 201, then \`GET /orders/:id\` returns the one item as sent.
2. **rejects an order without items**: a 400 with \`error: 'invalid order'\` (zod's \`.min(1)\`).
3. **rolls back when an item repeats a sku**: it expects a **500**. That test pins down the behaviour I described
   for the schema: the primary key of \`order_items\` refuses the second row and the route turns it into a 500.

What is not covered: \`GET /orders/:id\` for a missing order (404) or a malformed id (500 today), an unknown
customer, and anything about logging. In particular nothing tests \`src/logger.ts\`, so a change in how logkit
represents levels would only show up in the compiler, or in production.

These tests never ran this morning: CI stops at \`npm run build\`, before \`npm test\`.`;

const FINDINGS = `**Found it.** The build breaks because a dependency moved under us, not because of our code.

- **Build log**: \`tsc\` fails in \`src/logger.ts\` with three errors, all about logkit's \`LogLevel\`:
  - line 13, TS2322: \`LogLevel\` is not assignable to our \`Level\` (\`"debug"\` is not a number);
  - line 23, TS2322: \`process.env.LOG_LEVEL\` (a \`string\`) is passed where a \`LogLevel\` is expected;
  - line 34, TS2352: our numeric \`Level\` is cast to \`LogLevel\`.
- **Install log** (567 lines of registry requests): this morning's run installed with \`npm install\`, which
  resolved **logkit 3.0.0** (npm even warned: "LogLevel is now a string union"). Our range \`^2.9.0 || ^3.0.0\`
  allows it. logkit 3 turned \`LogLevel\` from numbers into \`"debug" | "info" | "warn" | "error"\`.

\`src/logger.ts\` still treats log levels as numbers: \`toLevel\` casts logkit's level to our numeric \`Level\` enum and
\`isEnabled\` compares them with \`<=\`, so it stopped compiling the moment logkit 3 was installed.

The install log was too big to keep in the context: ctx offloaded it to a file and left me a preview (its first and
last lines, where npm's warning is). I can read any part back with \`ctx_read_offloaded\` if we need more.`;

const GREEN_RUN = `Confirmed. Yesterday's green run (**#1841**) installed with \`npm ci\` from the committed lockfile, and
\`npm ls logkit\` printed **logkit@2.9.4**. That log is short, so it stayed in the context as it is; only the big
install log of #1842 was offloaded.

So why did the lockfile not protect us?

1. **The CI job changed, not the lockfile.** \`.github/workflows/ci.yml\` now runs \`npm install --loglevel http\`:
   this morning's merge replaced \`npm ci\` (it was meant to show slow registry requests). \`npm install\` is allowed to update
   the lockfile when it no longer matches \`package.json\`.
2. **\`package.json\` and the lockfile disagreed.** The same merge widened the range to \`^2.9.0 || ^3.0.0\`
   (a Renovate suggestion that was accepted without the lockfile update). With \`npm ci\` that mismatch would
   have failed the install loudly; with \`npm install\` it silently resolved to the newest match: 3.0.0.
3. **logkit 3.0.0 is a major release** with a breaking change to \`LogLevel\`, and we only use the type in one
   place, \`src/logger.ts\`, which is exactly where the compiler stops.

Nothing else in the dependency tree changed in a way that matters: the other 36 changed packages are patch
releases, and \`tsc\` reports errors in \`src/logger.ts\` only.`;

const FIX = `Two changes: make the CI install strict again, and make \`src/logger.ts\` independent of how logkit spells
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
-      - run: npm install --loglevel http
+      - run: npm ci
       - run: npm run build
       - run: npm test
\`\`\`

**2. \`src/logger.ts\`: map logkit's levels explicitly**, so a string union and the old numeric enum both work:

\`\`\`diff
--- a/src/logger.ts
+++ b/src/logger.ts
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
\`src/logger.ts\` treated it as a number (TS2322 at lines 13 and 23, TS2352 at line 34).

Changes:
- CI installs with \`npm ci\` again, so a lockfile that does not match \`package.json\` fails the install.
- \`src/logger.ts\` maps logkit's levels explicitly (\`toLevel\`, \`parseLevel\`); numeric and named levels work.
- \`package.json\` requires \`logkit@^3.0.0\`; the lockfile is regenerated and committed with the change.
- New unit tests for the level mapping, including an unknown \`LOG_LEVEL\`.

Evidence: build #1842's compile and install logs (the install log kept by ctx as an offloaded file) and #1841's install log.`;

/** A scripted call of the stand-in's file tool: it reads the project's real file from the workspace. */
const read = (callId, file) => ({ toolCall: { callId, name: READ_FILE_TOOL, input: { path: `${DEMO_PROJECT}/${file}` } } });

/** The conversation: each step is one @ctx query and the replies the stand-in gives to the requests it causes. */
const STEPS = [
  {
    query: `I'm new to ${DEMO_PROJECT}. How is it put together, and where does logging happen?`,
    replies: [
      [{ text: "I'll read the entry point and the logger first." }, read('server-ts', 'src/server.ts')],
      [read('logger-ts-overview', 'src/logger.ts')],
      [read('package-json', 'package.json')],
      OVERVIEW,
    ],
  },
  {
    query: 'How are new orders validated, and what happens on a database error?',
    replies: [[read('orders-ts', 'src/routes/orders.ts')], ROUTES],
  },
  {
    query: 'What does the database schema look like?',
    replies: [[read('schema-sql', 'migrations/001_orders.sql')], SCHEMA],
  },
  {
    query: 'And what do the tests cover?',
    replies: [[read('orders-test', 'test/orders.test.ts')], TESTS],
  },
  {
    query: `The CI build of ${DEMO_PROJECT} on main has been failing since this morning. Find out why.`,
    replies: [
      [{ text: "I'll start with the compile step of the failing CI run (#1842)." }, read('ci-build-log', 'ci-logs/1842-build.log')],
      [
        {
          text:
            "The compile step fails with three type errors in `src/logger.ts`, all about logkit's `LogLevel`. " +
            "That file did not change this morning, so the type it uses must have. Let me read the same run's install log.",
        },
        read('ci-install-log', 'ci-logs/1842-install.log'),
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
        { text: "Yesterday's install log (#1841) is short; I'll read it whole, and the CI workflow." },
        read('green-install-log', 'ci-logs/1841-install.log'),
      ],
      [read('ci-workflow', '.github/workflows/ci.yml')],
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

/**
 * Takes the profile's demo marker: true when this window is the one to play the demo, false when another played it or
 * is playing it. Creating the file is atomic, so two windows opened at once cannot both take it.
 */
function takePlayedMarker(dir) {
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(path.join(dir, PLAYED_FILE), JSON.stringify({ pid: process.pid, at: new Date().toISOString() }) + '\n', {
      flag: 'wx',
    });
    return true;
  } catch (e) {
    if (e.code === 'EEXIST') return false;
    throw e;
  }
}

/** Writes the demo project into the first workspace folder, leaving files that are there already as they are. */
function writeDemoProject() {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder || folder.uri.scheme !== 'file') throw new Error('the demo needs a workspace folder on disk to write its project into');
  for (const [file, text] of Object.entries(demoProjectFiles())) {
    const target = path.join(folder.uri.fsPath, file);
    if (fs.existsSync(target)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
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
      // Generous: on a busy machine, with several windows open, the first request waits for VS Code to resolve the models.
      await waitUntil(`@ctx to send "${step.query}" to the model`, () => model.requests.length > before, 120000);
      await waitUntil(`@ctx to use every scripted reply for "${step.query}"`, () => model.script.length === 0, 180000);
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
  writeDemoProject();
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
 * Plays the demo once per demo profile. `model` is the stand-in model (its script queue and its record of requests).
 */
async function runDemo(context, model) {
  const log = vscode.window.createOutputChannel('ctx demo (test stand-in)', { log: true });
  context.subscriptions.push(log);
  const dir = (context.storageUri || context.globalStorageUri).fsPath;
  const playedDir = context.globalStorageUri.fsPath;
  const started = Date.now();
  let status;
  let playing = false;
  const finish = (result) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, MARKER_FILE),
      JSON.stringify({ ...result, at: new Date().toISOString(), ms: Date.now() - started }, null, 2) + '\n',
    );
  };
  const showDemoViews = async () => {
    // A browser that has not opened this workspace before starts with the Explorer: show the demo's views.
    await vscode.commands.executeCommand('ctx.showTree');
    await vscode.commands.executeCommand('workbench.action.chat.open');
  };
  try {
    const ctx = vscode.extensions.getExtension(CTX_EXTENSION_ID);
    if (!ctx) throw new Error(`${CTX_EXTENSION_ID} is not installed`);
    // ctx activates on onStartupFinished: once it is active, the workbench is up and restored.
    await waitUntil('ctx to activate', () => ctx.isActive, 120000);
    const api = await ctx.activate();
    if (!api) throw new Error('ctx did not start (see its output channel)');
    if (api.currentSessionId() || hasSessions(api.storageRoot) || !takePlayedMarker(playedDir)) {
      log.info('the demo was played in this profile already (or another window is playing it): not playing it again');
      await showDemoViews();
      finish({ ok: true, played: false, reason: 'the demo was played in this profile already, or another window is playing it' });
      return;
    }
    playing = true;
    status = vscode.window.setStatusBarMessage('$(play) ctx demo: the offline stand-in model is playing a scripted session…');
    writeDemoProject();
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
    // The next start may play it again.
    if (playing) fs.rmSync(path.join(playedDir, PLAYED_FILE), { force: true });
    finish({ ok: false, played: true, error: message });
  } finally {
    if (status) status.dispose();
  }
}

module.exports = { runDemo, playDemoNow, MARKER_FILE, PLAYED_FILE };
