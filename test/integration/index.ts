/**
 * The in-host test runner: VS Code `require`s this module inside the real extension host (the workbench's
 * `extensionTestsPath`) and awaits `run()`. It runs every compiled `*.test.js` beside it with mocha (BDD:
 * describe/it), writes the result file the harness reads, and rejects when a test failed.
 *
 * Environment: CTX_TEST_RESULT_FILE (where to write results), CTX_TEST_GREP (run only matching tests),
 * CTX_TEST_TIMEOUT_MS (per-test timeout, default 30000), CTX_TEST_SUITE (`restricted`: only the tests in
 * `restricted/`, which expect an untrusted workspace; otherwise every other test).
 */
import * as fs from 'fs';
import * as path from 'path';
import type MochaType from 'mocha';
import { completeChatSetup } from './chatSetup';
import { metricsFilePath, readMetrics, ResultFile, RESULT_SCHEMA_VERSION, TestRecord, writeResultFile } from './results';
import { patient } from './patience';

type MochaConstructor = typeof MochaType;

/** mocha 11 is CommonJS; mocha 12 is ESM-only and `require` then gives a namespace holding `default`. */
function loadMocha(): MochaConstructor {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('mocha') as MochaConstructor | { default: MochaConstructor };
  return typeof loaded === 'function' ? loaded : loaded.default;
}

/** The folder of the tests that run in Restricted Mode, in a run of their own (CTX_TEST_SUITE=restricted). */
const RESTRICTED_FOLDER = 'restricted';

/** Compiled test files under `dir`, sorted for a stable order. */
function findTestFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTestFiles(full));
    else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

/**
 * The smoke tests run first: they check what every other test stands on, and they look for what the workbench
 * shows as it starts (the first-run guidance on ctx's models), which later tests clear from the notifications.
 */
const FIRST_FILE = 'smoke.test.js';

/** The files of this run: the Restricted Mode tests alone, or every other test, the smoke tests first. */
function suiteFiles(dir: string): string[] {
  const restricted = path.join(dir, RESTRICTED_FOLDER) + path.sep;
  const inRestricted = (file: string) => file.startsWith(restricted);
  const wanted = process.env.CTX_TEST_SUITE === 'restricted';
  const files = findTestFiles(dir).filter((file) => inRestricted(file) === wanted);
  const first = (file: string) => (path.basename(file) === FIRST_FILE ? 0 : 1);
  return files.sort((a, b) => first(a) - first(b));
}

function record(test: MochaType.Test, state: TestRecord['state'], error?: Error): TestRecord {
  return {
    title: test.title,
    fullTitle: test.fullTitle(),
    file: test.file,
    state,
    durationMs: test.duration,
    error: error ? { message: error.message, stack: error.stack } : undefined,
  };
}

/** Entry point called by VS Code's extension host. */
export async function run(): Promise<void> {
  const Mocha = loadMocha();
  const timeout = Number(process.env.CTX_TEST_TIMEOUT_MS) || patient(30000);
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout, reporter: 'spec' });
  if (process.env.CTX_TEST_GREP) mocha.grep(process.env.CTX_TEST_GREP);
  for (const file of suiteFiles(__dirname)) mocha.addFile(file);
  fs.rmSync(metricsFilePath(), { force: true });
  await completeChatSetup();

  const started = Date.now();
  const tests: TestRecord[] = [];
  const failures = await new Promise<number>((resolve, reject) => {
    try {
      const runner = mocha.run(resolve);
      runner.on('pass', (test) => tests.push(record(test, 'passed')));
      runner.on('fail', (test, error: Error) => tests.push(record(test, 'failed', error)));
      runner.on('pending', (test) => tests.push(record(test, 'pending')));
    } catch (e) {
      reject(e);
    }
  });

  const result: ResultFile = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: Math.max(failures, tests.filter((t) => t.state === 'failed').length),
    pending: tests.filter((t) => t.state === 'pending').length,
    durationMs: Date.now() - started,
    tests,
    metrics: readMetrics(),
  };
  writeResultFile(result);
  if (result.failed > 0) throw new Error(`${result.failed} integration test(s) failed`);
}
