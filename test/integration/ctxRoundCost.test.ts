/**
 * A benchmark, not a timing assertion: what a long `@ctx` turn costs per round in a real VS Code, beside a control
 * participant (test/extensions/control-participant) that runs the same tool loop without ctx, with the same stand-in
 * model, the same tool and the same results, in the same chat UI. Per round it measures the gap from the tool's
 * result returned to the next model request (the stand-in timestamps both), the participant's own CPU (a profile
 * of the extension host, samples whose stack is in the participant's code), and after the run the extension host's
 * resident memory. The figures go to the run's metrics (`roundCost.*`) and to a JSON file of every round beside the
 * results; what it asserts is functional: every request fits the window, both turns end with the final answer after
 * the same number of rounds.
 *
 * 80 tool rounds in the suite (about 40 s); `--env CTX_TEST_ROUND_COST=200` sets the number of rounds (200: about
 * 4 minutes, give the harness `--timeout 900`); `CTX_TEST_ROUND_COST_ORDER=ctx-first` runs @ctx before the control
 * (the control runs first by default); `CTX_TEST_ROUND_COST_PROFILE=1` writes each run's CPU profile beside the results.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { CTX_EXTENSION_ID, ctxApi, waitFor } from './ctxClient';
import { startProfile } from './cpuProfile';
import { page, selectors } from './page';
import { recordMetric, resultFilePath } from './results';
import * as standin from './standin';
import { patient } from './patience';

const ROUNDS = Number(process.env.CTX_TEST_ROUND_COST) || 80;
const CONTROL_EXTENSION_ID = 'ctx-test.control-participant';
const WINDOW_TOKENS = 60_000;
/** Stand-in tokens of one line of the stand-in's log (characters / 4). */
const TOKENS_PER_LINE = 23.6;
/** The results' sizes in stand-in tokens, a cycle of ten: the first and the last ten rounds hold the same mix. */
const RESULT_TOKENS = [2000, 6000, 3000, 15000, 2500, 30000, 4000, 9000, 2000, 20000];
const FINAL_ANSWER = 'Every part of the build log is read: the build is fine.';
const QUERY = 'read every part of the build log, one call per part';
/** What the model says each round, about 120 stand-in tokens: the answer grows in the chat round after round. */
const notes = (part: number) => `Part ${part}: ${'the compiler warns about the same deprecated option again. '.repeat(8)}\n\n`;

interface Participant {
  readonly name: 'ctx' | 'control';
  readonly mention: string;
  readonly extensionId: string;
}

const PARTICIPANTS: readonly Participant[] = [
  { name: 'control', mention: '@control', extensionId: CONTROL_EXTENSION_ID },
  { name: 'ctx', mention: '@ctx', extensionId: CTX_EXTENSION_ID },
];

/** What one run measured. */
interface RunFigures {
  readonly requests: standin.RecordedRequest[];
  readonly toolCalls: standin.ToolInvocation[];
  readonly summaries: number;
  /** Per round r (1…ROUNDS): the tool's result of round r returned → the model request of round r + 1. */
  readonly gapsMs: number[];
  /** Per round: from the model request of round r to the next one. */
  readonly roundsMs: number[];
  /** Per round (same windows as `roundsMs`): CPU of the participant's own code. */
  readonly cpuMs: number[];
  /** The functions the participant's CPU went to in the first ten rounds and in the last ten: where a growth comes from. */
  readonly functions: { readonly first10: [string, number][]; readonly last10: [string, number][] };
  /** Per gap (same windows as `gapsMs`): CPU of the participant's own code, and of the whole extension host. */
  readonly gapCpuMs: number[];
  readonly gapHostBusyMs: number[];
  /** Per gap: the summary requests that reached the model within it. */
  readonly gapSummaries: number[];
  /** Per gap: the chat page's long tasks (over 50 ms, from the browser's PerformanceObserver) that started in it. */
  readonly gapPageLongTaskMs: number[];
  /** All the page's long tasks during the run. */
  readonly pageLongTaskMs: number;
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
  readonly seconds: number;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const first10 = (values: readonly number[]) => median(values.slice(0, 10));
const last10 = (values: readonly number[]) => median(values.slice(-10));
const round2 = (n: number) => Math.round(n * 100) / 100;
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Starts (again) collecting the page's long tasks as `[start, duration]` in epoch milliseconds. */
const WATCH_LONG_TASKS = `(() => {
  window.__ctxLongTasks = [];
  if (!window.__ctxLongTaskObserver) {
    window.__ctxLongTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__ctxLongTasks.push([performance.timeOrigin + e.startTime, e.duration]);
    });
    window.__ctxLongTaskObserver.observe({ entryTypes: ['longtask'] });
  }
  return true;
})()`;

function script(): standin.ScriptReply[] {
  const replies: standin.ScriptReply[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const lines = Math.round(RESULT_TOKENS[i % RESULT_TOKENS.length] / TOKENS_PER_LINE);
    replies.push([{ text: notes(i + 1) }, { toolCall: { callId: `part-${i + 1}`, name: standin.BIG_RESULT_TOOL, input: { lines } } }]);
  }
  return [...replies, FINAL_ANSWER];
}

/** Runs the scripted turn through one participant in a new chat and measures it. */
async function measure(participant: Participant): Promise<RunFigures> {
  const extension = vscode.extensions.getExtension(participant.extensionId);
  assert.ok(extension, `${participant.extensionId} is installed`);
  await standin.reset();
  await standin.script(...script());
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await page.evaluate(WATCH_LONG_TASKS);
  const profile = await startProfile();
  const started = Date.now();
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `${participant.mention} ${QUERY}` });
  // A slow poll: the benchmark's own work in the extension host should not weigh on what it measures.
  const requests = await waitFor(
    `${ROUNDS + 1} model requests from ${participant.mention}`,
    async () => {
      await new Promise((r) => setTimeout(r, 900));
      const all = await standin.requests();
      return all.length >= ROUNDS + 1 ? all : undefined;
    },
    ROUNDS * 8000,
  );
  if (participant.name === 'ctx') await (await ctxApi()).whenIdle();
  const seconds = (Date.now() - started) / 1000;
  const taken = await profile.stop();
  if (process.env.CTX_TEST_ROUND_COST_PROFILE) {
    taken.write(path.join(path.dirname(resultFilePath()), `round-cost-${participant.name}.cpuprofile`));
  }
  // The participant's own scripts: in a run from the repository, VS Code, these tests and the stand-in all live inside ctx's folder.
  const code = path.dirname(path.join(extension.extensionPath, (extension.packageJSON as { main: string }).main));
  const memory = process.memoryUsage();
  const longTasks = await page.evaluate<[number, number][]>('window.__ctxLongTasks');
  const toolCalls = await standin.toolInvocations();
  const summaryTimes = (await standin.summaryRequests()).map((s) => s.atMs);
  const gapWindows = toolCalls.map((call, i): [number, number] => [call.returnedAtMs ?? call.atMs, requests[i + 1].atMs]);
  const gapsMs = gapWindows.map(([from, to]) => to - from);
  const windows = requests.slice(0, -1).map((r, i): [number, number] => [r.atMs, requests[i + 1].atMs]);
  return {
    requests,
    toolCalls,
    summaries: summaryTimes.length,
    gapsMs,
    gapCpuMs: taken.cpuMsIn(code, gapWindows),
    gapHostBusyMs: taken.busyMsIn(gapWindows),
    gapSummaries: gapWindows.map(([from, to]) => summaryTimes.filter((t) => t >= from && t < to).length),
    gapPageLongTaskMs: gapWindows.map(([from, to]) => longTasks.filter(([at]) => at >= from && at < to).reduce((n, [, ms]) => n + ms, 0)),
    pageLongTaskMs: longTasks.reduce((n, [, ms]) => n + ms, 0),
    roundsMs: windows.map(([from, to]) => to - from),
    cpuMs: taken.cpuMsIn(code, windows),
    functions: {
      first10: taken.functionsIn(code, windows.slice(0, 10), 25),
      last10: taken.functionsIn(code, windows.slice(-10), 25),
    },
    rssMiB: mib(memory.rss),
    heapUsedMiB: mib(memory.heapUsed),
    seconds,
  };
}

function record(name: string, run: RunFigures): void {
  const gapRatio = last10(run.gapsMs) / first10(run.gapsMs);
  const metrics: Record<string, number> = {
    rounds: run.toolCalls.length,
    seconds: round2(run.seconds),
    gapMsFirst10: first10(run.gapsMs),
    gapMsLast10: last10(run.gapsMs),
    gapRatio: round2(gapRatio),
    roundMsFirst10: first10(run.roundsMs),
    roundMsLast10: last10(run.roundsMs),
    cpuMsFirst10: round2(first10(run.cpuMs)),
    cpuMsLast10: round2(last10(run.cpuMs)),
    gapCpuMsFirst10: round2(first10(run.gapCpuMs)),
    gapCpuMsLast10: round2(last10(run.gapCpuMs)),
    gapHostBusyMsFirst10: round2(first10(run.gapHostBusyMs)),
    gapHostBusyMsLast10: round2(last10(run.gapHostBusyMs)),
    gapPageLongTaskMsFirst10: round2(first10(run.gapPageLongTaskMs)),
    gapPageLongTaskMsLast10: round2(last10(run.gapPageLongTaskMs)),
    pageLongTaskMs: Math.round(run.pageLongTaskMs),
    largestRequestShare: round2(Math.max(...run.requests.map((r) => r.inputTokens)) / WINDOW_TOKENS),
    summaryRequests: run.summaries,
    rssMiBAfter: run.rssMiB,
    heapUsedMiBAfter: run.heapUsedMiB,
  };
  for (const [key, value] of Object.entries(metrics)) recordMetric(`roundCost.${name}.${key}`, value);
}

describe(`a long @ctx turn against a control participant (${ROUNDS} tool rounds, ${WINDOW_TOKENS}-token window)`, function () {
  this.timeout(patient(Math.max(60_000, ROUNDS * 20_000)));
  const runs = new Map<string, RunFigures>();
  let saved: { rounds?: number; allowed?: string[]; limits?: standin.StandinLimits } = {};

  before(async () => {
    assert.ok(ROUNDS >= 20, `CTX_TEST_ROUND_COST is the number of tool rounds, at least 20 (got ${ROUNDS})`);
    await ctxApi();
    const ctx = vscode.workspace.getConfiguration('ctx');
    const limits = await standin.configure();
    saved = {
      rounds: ctx.inspect<number>('tools.maxRounds')?.globalValue,
      allowed: ctx.inspect<string[]>('tools.allowed')?.globalValue,
      limits: { maxInputTokens: limits.maxInputTokens, recordMessages: limits.recordMessages },
    };
    await ctx.update('tools.maxRounds', ROUNDS + 2, vscode.ConfigurationTarget.Global);
    await ctx.update('tools.allowed', ['ctxStandin_*'], vscode.ConfigurationTarget.Global);
    // The stand-in keeps no messages: its recordings would weigh on the extension host's memory in both runs.
    await standin.configure({ maxInputTokens: WINDOW_TOKENS, recordMessages: false });
  });

  after(async () => {
    const ctx = vscode.workspace.getConfiguration('ctx');
    await ctx.update('tools.maxRounds', saved.rounds, vscode.ConfigurationTarget.Global);
    await ctx.update('tools.allowed', saved.allowed, vscode.ConfigurationTarget.Global);
    await standin.configure(saved.limits);
    await standin.reset();
  });

  const order = process.env.CTX_TEST_ROUND_COST_ORDER === 'ctx-first' ? [...PARTICIPANTS].reverse() : PARTICIPANTS;
  for (const participant of order) {
    it(`${participant.mention} runs every round with every request in the window and ends with the final answer`, async () => {
      const run = await measure(participant);
      runs.set(participant.name, run);
      record(participant.name, run);
      assert.equal(run.toolCalls.length, ROUNDS, 'one tool call a round');
      assert.equal(run.requests.length, ROUNDS + 1, 'one model request a round and the last one');
      assert.ok(
        run.requests.every((r) => r.inputTokens <= WINDOW_TOKENS),
        `every request fits the window: ${run.requests.map((r) => r.inputTokens).join(', ')}`,
      );
      assert.ok(
        run.requests.every((r) => r.from === participant.extensionId),
        `every request came from ${participant.extensionId}`,
      );
      await page.waitForText(selectors.chatResponses, FINAL_ANSWER, 60_000);
      await page.screenshot(`round-cost-${participant.name}`);
    });
  }

  it('did the same number of rounds in both runs, and records their growth side by side', () => {
    const ctx = runs.get('ctx');
    const control = runs.get('control');
    assert.ok(ctx && control, 'both runs finished');
    assert.equal(ctx.gapsMs.length, control.gapsMs.length);
    const growth = (run: RunFigures) => last10(run.gapsMs) / first10(run.gapsMs);
    recordMetric('roundCost.gapRatioCtxOverControl', round2(growth(ctx) / growth(control)));
    recordMetric('roundCost.order', order.map((p) => p.name).join(' then '));
    const file = path.join(path.dirname(resultFilePath()), `round-cost-${ROUNDS}.json`);
    const perRound = (run: RunFigures) => ({
      gapsMs: run.gapsMs,
      gapCpuMs: run.gapCpuMs.map(round2),
      gapHostBusyMs: run.gapHostBusyMs.map(round2),
      gapSummaries: run.gapSummaries,
      gapPageLongTaskMs: run.gapPageLongTaskMs.map(round2),
      roundsMs: run.roundsMs,
      cpuMs: run.cpuMs.map(round2),
      functions: run.functions,
      // When each request reached the model and each tool's result was returned (`Date.now()`), to line up with other logs.
      requestAtMs: run.requests.map((r) => r.atMs),
      toolReturnedAtMs: run.toolCalls.map((c) => c.returnedAtMs ?? c.atMs),
    });
    fs.writeFileSync(file, JSON.stringify({ vscode: vscode.version, ctx: perRound(ctx), control: perRound(control) }, null, 1));
    recordMetric('roundCost.perRoundFile', file);
  });
});
