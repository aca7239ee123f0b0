/**
 * Today's engine against the engine of 2026-11-26, both built in this run (`baselineEngine.ts`) and timed on the same
 * input in the same process, alternately, so that the machine's load moves both figures and not their ratio:
 *
 * - the deterministic summary of a long agent session (6,000 messages, a few megabytes, every 7th command failing);
 * - the deterministic summary of the largest dev transcript;
 * - the recovery index of a 50 MB offloaded build log (read up to its cap).
 *
 * In CPU time (user and system), which a busy machine inflates less than the wall clock; the ratio is the median of
 * each turn's own (see `inTurns`). Time limits live here, as ratios; the unit tests assert what the engine does, not how fast.
 * Run alone with `node out/test/bench/engineSpeed.js [--quick]`.
 */
import { NEVER_CANCELLED } from '../../src/engine/cancellation';
import { sessionPaths } from '../../src/engine/model/sessionPaths';
import type { RecoveryIndex } from '../../src/engine/recovery/recoveryIndex';
import type { Store } from '../../src/engine/ports';
import type { Summarizer, SummaryRequest } from '../../src/engine/summary/summarizer';
import { TokenCounter } from '../../src/engine/tokens/counter';
import { messageText, type Message } from '../../src/engine/types';
import { buildEnginePair, type EnginePair } from './baselineEngine';
import { median, type BenchRow } from './benchRow';
import { importForReplay, largestTranscriptFile, readyTokenizer, shortName } from './replayFixtures';
import { runAlone } from './runAlone';
import { longCommandSession } from '../unit/summary/summaryFakes';

const GROUP = 'engine speed';
/** The engine the figures are compared with: the last commit of 2026-11-26. */
export const BASELINE_COMMIT = '2e93419';
const BASELINE_DATE = '2026-11-26';
/** Today's engine may take at most this many times the baseline's CPU time for the same work. */
const MAX_SLOWDOWN = 1.1;
/**
 * On a real transcript it reads more than it did: over the first 400 lines of a result where it read 120, with 27
 * diagnostic forms where it read 6, the answers of file tools, the failed tests' causes and the messages raised in
 * code (2026-11-27). Measured at about 1.5× on the largest dev transcript; that reading may cost up to this much.
 */
const MAX_SLOWDOWN_READING_MORE = 2;
/**
 * The recovery index keeps its postings in typed arrays and reads its passages' texts back (2026-11-27), to hold a
 * tenth of the memory it held: building it may cost this much more CPU.
 */
const MAX_SLOWDOWN_COMPACT_INDEX = 2;
const SESSION_ID = 's-20260121-103522-bench';
const FIFTY_MB = 50 * 1024 * 1024;

/** What the benchmark calls in each engine: the entry below, bundled from each engine's sources. */
interface Engine {
  summarizerOf(countText: (text: string) => Promise<number>): Summarizer;
  buildIndex(store: Store, sessionId: string): Promise<RecoveryIndex>;
  memoryStore(): Store;
}

const ENTRY = `
import { DeterministicSummarizer } from './src/engine/summary/deterministicSummarizer';
import { recordToolActivity } from './src/engine/ledger/toolRecord';
import { RecoveryIndex } from './src/engine/recovery/recoveryIndex';
import { MemoryStore } from './src/engine/storage/memoryStore';
export function summarizerOf(countText) { return new DeterministicSummarizer({ countText, recordTools: (m) => recordToolActivity(m) }); }
export function buildIndex(store, sessionId) { return RecoveryIndex.build(store, sessionId); }
export function memoryStore() { return new MemoryStore(); }
`;

/** About 50 MB of build output, a warning at its start and a failure at its end. */
function hugeBuildLog(): string {
  const chunk: string[] = [];
  for (let i = 0; i < 1000; i++) chunk.push(`[webpack] compiled module ./src/components/widget${i % 97}.tsx in ${i % 13}ms`);
  const block = `${chunk.join('\n')}\n`;
  return `WARN deprecated polyfill\n${block.repeat(Math.ceil(FIFTY_MB / block.length))}ERROR linker failure\n`;
}

function historyRequest(messages: readonly Message[]): SummaryRequest {
  const intent = messageText(messages.find((m) => m.role === 'user') ?? messages[0]).slice(0, 500);
  return {
    kind: 'history',
    messages,
    guide: { intent, goals: [], decisions: [], progress: [] },
    targetTokens: 1200,
    references: {
      archive: `sessions/${SESSION_ID}/archive.jsonl`,
      offloaded: `sessions/${SESSION_ID}/offloaded/`,
      firstMessageId: 'a0',
      lastMessageId: 'z',
    },
  };
}

/** CPU milliseconds (user and system) of one call. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** What `calls` turns of the two engines measured. */
interface Turns {
  readonly today: number;
  readonly baseline: number;
  /** The median of each turn's ratio, today / baseline: the two calls of a turn ran under the same load. */
  readonly ratio: number;
}

/**
 * The two engines in turns, one call each a turn, which goes first changing every turn (a load that rises or falls
 * during a turn favours neither); the first turn warms both up and is not counted. The figures are each engine's best
 * call, the ratio the median of the turns' own ratios, which a machine whose load changes from turn to turn moves least.
 */
async function inTurns(calls: number, today: () => Promise<unknown>, baseline: () => Promise<unknown>): Promise<Turns> {
  const best = { today: Infinity, baseline: Infinity };
  const ratios: number[] = [];
  for (let turn = 0; turn <= calls; turn++) {
    const first = turn % 2 === 0 ? today : baseline;
    const [a, b] = [await cpuMs(first), await cpuMs(first === today ? baseline : today)];
    const [t, base] = first === today ? [a, b] : [b, a];
    if (turn === 0) continue;
    best.today = Math.min(best.today, t);
    best.baseline = Math.min(best.baseline, base);
    ratios.push(t / base);
  }
  return { ...best, ratio: median(ratios) };
}

function row(name: string, turns: Turns, calls: number, note: string, maxSlowdown = MAX_SLOWDOWN): BenchRow {
  return {
    group: GROUP,
    name,
    value: turns.today,
    unit: 'ms CPU',
    baseline: turns.baseline,
    ratio: turns.ratio,
    goal: `≤ ${maxSlowdown}× the engine of ${BASELINE_DATE}`,
    met: turns.ratio <= maxSlowdown,
    note:
      `${note}; ${calls} turns of one warm call each, best call shown; ` +
      `ratio: median of the turns' today / the engine of ${BASELINE_DATE} (${BASELINE_COMMIT}), lower is better`,
  };
}

export async function benchEngineSpeed(quick = false): Promise<BenchRow[]> {
  const engines = buildEnginePair<Engine>(ENTRY, BASELINE_COMMIT);
  if ('problem' in engines) {
    return [{ group: GROUP, name: `today against ${BASELINE_DATE}`, value: NaN, unit: '', note: `not measured: ${engines.problem}` }];
  }
  try {
    return [...(await summaries(engines, quick)), await recoveryIndex(engines, quick)];
  } finally {
    engines.dispose();
  }
}

async function summaries(engines: EnginePair<Engine>, quick: boolean): Promise<BenchRow[]> {
  const calls = quick ? 7 : 30;
  const countChars = async (text: string) => Math.ceil(text.length / 4);
  const session = historyRequest(longCommandSession(6000));
  const summarize = (engine: Engine, request: SummaryRequest, count: (text: string) => Promise<number>) => () =>
    engine.summarizerOf(count).summarize(request, NEVER_CANCELLED);
  const rows = [
    row(
      `deterministic summary, a session of ${session.messages.length.toLocaleString('en-US')} messages`,
      await inTurns(calls, summarize(engines.today, session, countChars), summarize(engines.baseline, session, countChars)),
      calls,
      'commands and their outputs, every 7th failing; four characters a token',
    ),
  ];
  const file = largestTranscriptFile();
  const counter = new TokenCounter(await readyTokenizer());
  const count = (text: string) => counter.countText(text);
  const transcript = historyRequest(importForReplay(file).messages);
  rows.push(
    row(
      `deterministic summary, all of ${shortName(file)}`,
      await inTurns(calls, summarize(engines.today, transcript, count), summarize(engines.baseline, transcript, count)),
      calls,
      `${transcript.messages.length.toLocaleString('en-US')} messages, the largest dev transcript; o200k_base counts; it reads more than it did`,
      MAX_SLOWDOWN_READING_MORE,
    ),
  );
  return rows;
}

async function recoveryIndex(engines: EnginePair<Engine>, quick: boolean): Promise<BenchRow> {
  const calls = quick ? 2 : 6;
  const log = hugeBuildLog();
  const storeWithLog = async (engine: Engine) => {
    const store = engine.memoryStore();
    await store.write(`${sessionPaths(SESSION_ID).offloaded}/build.txt`, log);
    return store;
  };
  const stores = [await storeWithLog(engines.today), await storeWithLog(engines.baseline)];
  return row(
    'recovery index of a 50 MB offloaded build log',
    await inTurns(
      calls,
      () => engines.today.buildIndex(stores[0], SESSION_ID),
      () => engines.baseline.buildIndex(stores[1], SESSION_ID),
    ),
    calls,
    'indexed up to its cap, in a memory store; the index is compact since 2026-11-27',
    MAX_SLOWDOWN_COMPACT_INDEX,
  );
}

runAlone(module, benchEngineSpeed);
