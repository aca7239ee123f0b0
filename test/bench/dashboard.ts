/**
 * The dashboard on a long session: 10,000 messages and 200 compressions, built by the engine
 * itself (messages arriving in batches, a request and a "Compress context" after each), and the
 * same 10,000 messages all live (the longest item list). Measured in node, as the panel does its
 * work in the extension host:
 *
 * - the first render: the engine's dashboard model and every part of the page as HTML, on the
 *   session just opened from its storage (the status bar has measured it), against the Markdown
 *   status report of the same session (`/status`: its measurement, snapshot list and rendering);
 * - one live update: a message arrives and the turn measures the context, then the model is built
 *   again and only the parts of the page that changed are kept to send, against the status report
 *   after the same change.
 *
 * The time to the first paint in the real webview is recorded by the real-VS-Code suite
 * (`dashboardFirstPaintMs`). Run alone with `node out/test/bench/dashboard.js [--quick]`.
 */
import { performance } from 'node:perf_hooks';
import { answerReserveBeside, budgetFor, DEFAULT_ANSWER_RESERVE_TOKENS } from '../../src/engine/budget';
import { DEFAULT_OPTIONS } from '../../src/engine/options';
import { silentLogger, type WorkspaceFiles } from '../../src/engine/ports';
import { renderStatusReport } from '../../src/engine/activity/statusReport';
import { ContextSession, type SessionDeps } from '../../src/engine/session/contextSession';
import { contextStatus } from '../../src/engine/activity/contextStatus';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import type { TokenCounter } from '../../src/engine/tokens/counter';
import { message, textBlock } from '../../src/engine/types';
import { dashboardPage } from '../../src/vscode/dashboard/dashboardPage';
import { changedSections, renderSections } from '../../src/vscode/dashboard/dashboardSections';
import { median, type BenchRow } from './benchRow';
import { readyCounter } from './replayFixtures';
import { syntheticSession } from './syntheticSession';
import { runAlone } from './runAlone';

const GROUP = 'dashboard';
const FIRST_RENDER_GOAL_MS = 300;
const UPDATE_GOAL_MS = 30;
/** The window of a common model, as ctx assumes before it has seen one. */
const MAX_INPUT_TOKENS = 128_000;
const ITEM_LIMIT = 100;
/** A window that holds 10,000 messages without compressing any. */
const ALL_LIVE_BUDGET = 20_000_000;

const noFiles: WorkspaceFiles = { readText: async () => undefined };
const n = (x: number) => Math.round(x).toLocaleString('en-US');

/** A clock one second a message: the session's own times. */
class StepClock {
  constructor(private time: number) {}
  now(): number {
    return this.time;
  }
  tick(): void {
    this.time += 1000;
  }
}

/**
 * The session: `messages` arriving in batches, each followed by a request and, when `compressions`
 * is above 0, a "Compress context", `compressions` times in all.
 */
async function buildSession(
  messages: number,
  compressions: number,
  deps: SessionDeps,
  clock: StepClock,
  budget: number,
): Promise<ContextSession> {
  const session = ContextSession.create(DEFAULT_OPTIONS, deps, `s-20260101-000000-bench${compressions}`);
  const all = syntheticSession(messages);
  const batch = Math.ceil(all.length / Math.max(1, compressions || all.length / 50));
  for (let i = 0; i < all.length; i += batch) {
    clock.tick();
    await session.add(all.slice(i, i + batch));
    await session.prepare(budget);
    if (compressions > 0) await session.compress(budget);
  }
  return session;
}

/** The page's parts and the page itself, as the panel renders them. */
function renderPage(model: Parameters<typeof renderSections>[0]) {
  const sections = renderSections(model, { kind: 'none' }, DEFAULT_OPTIONS.thresholds);
  const page = dashboardPage(sections, {
    cspSource: 'vscode-webview://bench',
    scriptUri: 'dashboard.js',
    styleUri: 'dashboard.css',
    nonce: 'bench',
  });
  return { sections, page };
}

/** `/status`: the measurement, the snapshots and the report, as the session manager makes it. */
async function statusReport(session: ContextSession, budget: number): Promise<string> {
  const measured = await session.measure(budget);
  const snapshots = await session.listSnapshots();
  return renderStatusReport(
    contextStatus({
      state: session.state,
      tokens: measured.tokens,
      budget,
      estimated: measured.estimated,
      thresholds: DEFAULT_OPTIONS.thresholds,
      warnings: session.warnings.map((w) => w.message),
      now: Date.now(),
      reliability: session.reliability(undefined),
      snapshots: snapshots.length,
      backgroundCheckpoint: session.backgroundCheckpointState,
    }),
  );
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

interface Scenario {
  /** What the session is, for the table. */
  readonly what: string;
  readonly messages: number;
  readonly compressions: number;
  readonly budget: number;
}

async function runScenario(scenario: Scenario, repetitions: number, counter: TokenCounter): Promise<BenchRow[]> {
  const { budget } = scenario;
  const reserveTokens = answerReserveBeside(budget, DEFAULT_ANSWER_RESERVE_TOKENS);
  const clock = new StepClock(Date.UTC(2026, 0, 1));
  const deps: SessionDeps = { store: new MemoryStore(), counter, files: noFiles, logger: silentLogger, clock };
  const built = Date.now();
  const live = await buildSession(scenario.messages, scenario.compressions, deps, clock, budget);
  const buildMs = Date.now() - built;
  const id = live.id;
  const shape =
    `${n(scenario.messages)} messages, ${scenario.what}: ` +
    `${n(live.state.checkpointsMade)} checkpoints made, ${n(live.state.history.length)} events, ${n(live.messages.length)} live messages`;
  live.dispose();

  // The first render, on the session as it is opened again (after a reload): its request view measured by the status bar first.
  const first: number[] = [];
  const firstBaseline: number[] = [];
  let bytes = 0;
  for (let r = 0; r < repetitions; r++) {
    const opened = await ContextSession.open(id, DEFAULT_OPTIONS, deps);
    if (!opened) throw new Error('the benchmark session could not be opened again');
    await opened.measure(budget);
    first.push(
      await timed(async () => {
        bytes = renderPage(await opened.dashboard({ budget, reserveTokens, itemLimit: ITEM_LIMIT })).page.length;
      }),
    );
    firstBaseline.push(await timed(() => statusReport(opened, budget)));
    opened.dispose();
  }

  // Live updates: a message arrives, the turn measures the context, the panel rebuilds and keeps the parts that changed.
  const session = await ContextSession.open(id, DEFAULT_OPTIONS, deps);
  if (!session) throw new Error('the benchmark session could not be opened again');
  await session.measure(budget);
  let shown = renderPage(await session.dashboard({ budget, reserveTokens, itemLimit: ITEM_LIMIT })).sections;
  const update: number[] = [];
  const updateBaseline: number[] = [];
  let changed = 0;
  for (let r = 0; r < repetitions; r++) {
    clock.tick();
    await session.add([
      message(`bench-live-${r}`, 'user', [textBlock(`One more question, number ${r}: what changed in the build?`)], clock.now()),
    ]);
    await session.measure(budget);
    update.push(
      await timed(async () => {
        const next = renderSections(
          await session.dashboard({ budget, reserveTokens, itemLimit: ITEM_LIMIT }),
          { kind: 'none' },
          DEFAULT_OPTIONS.thresholds,
        );
        changed = Object.keys(changedSections(shown, next)).length;
        shown = next;
      }),
    );
    updateBaseline.push(await timed(() => statusReport(session, budget)));
  }
  session.dispose();

  const firstMs = median(first);
  const updateMs = median(update);
  return [
    {
      group: GROUP,
      name: `first render: model and HTML (${shape})`,
      value: firstMs,
      unit: 'ms',
      baseline: median(firstBaseline),
      ratio: firstMs / median(firstBaseline),
      goal: `≤ ${FIRST_RENDER_GOAL_MS} ms`,
      met: firstMs <= FIRST_RENDER_GOAL_MS,
      note:
        `ratio: times the Markdown status report of the same session (the baseline, which lists the snapshots); ` +
        `page ${n(bytes / 1024)} KB; session built in ${n(buildMs / 1000)} s`,
    },
    {
      group: GROUP,
      name: `one live update: model, HTML and the parts that changed (${scenario.what})`,
      value: updateMs,
      unit: 'ms',
      baseline: median(updateBaseline),
      ratio: updateMs / median(updateBaseline),
      goal: `≤ ${UPDATE_GOAL_MS} ms`,
      met: updateMs <= UPDATE_GOAL_MS,
      note: `a message arrived; ${changed} of 6 parts sent; ratio: times the status report after the same change`,
    },
  ];
}

export async function benchDashboard(quick = false): Promise<BenchRow[]> {
  const messages = quick ? 1_000 : 10_000;
  const compressions = quick ? 20 : 200;
  const repetitions = quick ? 3 : 9;
  const counter = await readyCounter();
  return [
    ...(await runScenario(
      {
        what: `"Compress context" run ${compressions} times`,
        messages,
        compressions,
        budget: budgetFor({ maxInputTokens: MAX_INPUT_TOKENS }),
      },
      repetitions,
      counter,
    )),
    // The item list at its longest: every message still in the context, in a window large enough to hold them all.
    ...(await runScenario({ what: 'all of them live', messages, compressions: 0, budget: ALL_LIVE_BUDGET }, repetitions, counter)),
  ];
}

runAlone(module, benchDashboard);
