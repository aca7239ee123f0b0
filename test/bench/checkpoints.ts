/**
 * Tier 3 on the largest dev transcript, each figure against a baseline measured in the same run:
 *
 * - the user's wait at RED when a checkpoint was prepared in the background from ORANGE on: one
 *   `prepare()`, against the same `prepare()` with nothing ready (the deterministic floor written
 *   while the user waits); both sessions are built by the same steps;
 * - the deterministic summary of the whole transcript, as Tier 3 writes it, against a full token
 *   count of the same conversation;
 * - fact extraction and the recall check of the whole transcript against its deterministic summary
 *   (see `recall.ts`);
 * - one more Tier 3 in a session holding 20 checkpoints, which re-summarizes every one of them from
 *   the archived originals, against the same Tier 3 in a session with none.
 *
 * Run alone with `node out/test/bench/checkpoints.js [--quick]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancelledError, NEVER_CANCELLED, type Cancellation } from '../../src/engine/cancellation';
import { AGE_LABELS, rangeLabel, targetTokensFor } from '../../src/engine/checkpoints/aging';
import type { Checkpoint, CheckpointAge } from '../../src/engine/model/checkpoint';
import { guideFrom } from '../../src/engine/summary/summaryGuide';
import { EMPTY_LEDGER, type Ledger } from '../../src/engine/model/ledgerTypes';
import { recordToolActivity } from '../../src/engine/ledger/toolRecord';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../src/engine/options';
import { silentLogger } from '../../src/engine/ports';
import { ReplayClock } from '../../src/cli/replay/replayClock';
import { TranscriptWorkspace } from '../../src/cli/replay/transcriptWorkspace';
import { ContextSession, type SessionDeps } from '../../src/engine/session/contextSession';
import { newSessionId } from '../../src/engine/model/sessionPaths';
import type { SessionState } from '../../src/engine/model/sessionState';
import { FileStore } from '../../src/engine/storage/fileStore';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import { summarizeInChunks } from '../../src/engine/summary/chunkedSummary';
import { DeterministicSummarizer } from '../../src/engine/summary/deterministicSummarizer';
import type { Summarizer, SummaryRequest } from '../../src/engine/summary/summarizer';
import { TokenCounter } from '../../src/engine/tokens/counter';
import type { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import { messageText, type Message } from '../../src/engine/types';
import { median, type BenchRow } from './benchRow';
import { benchRecall } from './recall';
import { importForReplay, largestTranscriptFile, readyTokenizer, shortName, timedAsync } from './replayFixtures';
import { runAlone } from './runAlone';

const GROUP = 'checkpoints';
/** The user's wait at RED with a prepared checkpoint (the background preparation exists so this is short). */
const READY_PREPARE_GOAL_MS = 50;
/** How far past RED the request may be made, in steps, when its own tier 2 takes usage back under RED. */
const RED_MARGIN_STEP = 0.02;
const MAX_RED_MARGIN = 0.1;
/** Usage at which the aging benchmark's request is made: RED, below the automatic snapshot and result compression. */
const AGING_USAGE = 0.78;
/** Tier 2 left out of the aging benchmark, so its request always reaches Tier 3. */
const AGING_OPTIONS: EngineOptions = { ...DEFAULT_OPTIONS, truncateInputsAt: Number.POSITIVE_INFINITY };
/** Checkpoints in the aging benchmark, and their ages oldest first: 8 ancient, 6 old, 6 recent. */
const AGING_CHECKPOINTS: readonly CheckpointAge[] = [
  ...Array<CheckpointAge>(8).fill(2),
  ...Array<CheckpointAge>(6).fill(1),
  ...Array<CheckpointAge>(6).fill(0),
];
/** Messages each of those checkpoints covers. */
const MESSAGES_PER_CHECKPOINT = 15;
/** Live messages after them, from which Tier 3 makes one more checkpoint. */
const AGING_LIVE_MESSAGES = 57;

const n = (x: number) => Math.round(x).toLocaleString('en-US');

/** A session over a store in a fresh temporary folder, as the extension keeps one on disk. */
interface Bench {
  readonly session: ContextSession;
  readonly deps: SessionDeps;
  readonly clock: ReplayClock;
  readonly workspace: TranscriptWorkspace;
  readonly folder: string;
}

/** Where the benchmark sessions keep their files: on disk as the extension does, or in memory to time the engine alone. */
type StoreKind = 'disk' | 'memory';
/** What each store means for the measure, said in the notes. */
const STORE_WORDS: Readonly<Record<StoreKind, string>> = {
  disk: 'FileStore on the temporary folder (snapshot and state written as the extension writes them)',
  memory: 'MemoryStore: the engine alone, without file writes',
};

function openBench(tokenizer: LocalTokenizer, startAt: number, options: EngineOptions = DEFAULT_OPTIONS, store: StoreKind = 'disk'): Bench {
  const onDisk = store === 'disk';
  const folder = onDisk ? fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-checkpoints-')) : '';
  const clock = new ReplayClock(startAt);
  const workspace = new TranscriptWorkspace();
  const deps: SessionDeps = {
    store: onDisk ? new FileStore(folder) : new MemoryStore(),
    counter: new TokenCounter(tokenizer),
    files: workspace,
    logger: silentLogger,
    clock,
  };
  return { session: ContextSession.create(options, deps, newSessionId(startAt)), deps, clock, workspace, folder };
}

function closeBench(bench: Bench): void {
  bench.session.dispose();
  if (bench.folder) fs.rmSync(bench.folder, { recursive: true, force: true });
}

async function arrive(bench: Bench, message: Message): Promise<void> {
  bench.clock.arrive(message.at);
  bench.workspace.apply(message);
  await bench.session.add([message]);
}

/** A model that never answers until it is cancelled: background preparation stays in progress. */
const silentModel: Summarizer = {
  name: 'silent-model',
  maxInputTokens: 200_000,
  summarize: (_request: SummaryRequest, cancellation: Cancellation) =>
    new Promise<string>((_resolve, reject) => {
      cancellation.onCancellationRequested(() => reject(new CancelledError('Summarizing')));
    }),
};

/**
 * Replays messages with a request after each until background preparation starts (ORANGE), then
 * adds messages without requests until the next one is due at RED. With `ready`, the background
 * work is awaited; without, it is left waiting on a model that does not answer, so nothing is
 * ready at RED. Both take the same steps and stop at the same message.
 */
async function buildToRed(
  messages: readonly Message[],
  budget: number,
  tokenizer: LocalTokenizer,
  ready: boolean,
  margin: number,
  store: StoreKind,
): Promise<{ bench: Bench; at: number; state: string }> {
  const bench = openBench(tokenizer, messages[0]?.at ?? 0, DEFAULT_OPTIONS, store);
  const turn = ready ? {} : { summarizer: silentModel };
  let i = 0;
  for (; i < messages.length && bench.session.backgroundCheckpointState === 'idle'; i++) {
    await arrive(bench, messages[i]);
    await bench.session.prepare(budget, turn);
  }
  if (ready) await bench.session.whenPreparationSettled();
  for (; i < messages.length; i++) {
    await arrive(bench, messages[i]);
    if ((await bench.session.measure(budget)).usage >= DEFAULT_OPTIONS.thresholds.redAt + margin) break;
  }
  return { bench, at: i + 1, state: bench.session.backgroundCheckpointState };
}

interface PrepareSample {
  readonly ms: number;
  readonly at: number;
  readonly stateBefore: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly checkpoints: number;
}

async function timePrepareAtRed(
  messages: readonly Message[],
  budget: number,
  tokenizer: LocalTokenizer,
  ready: boolean,
  margin: number,
  store: StoreKind,
): Promise<PrepareSample> {
  const { bench, at, state } = await buildToRed(messages, budget, tokenizer, ready, margin, store);
  try {
    const before = await bench.session.measure(budget);
    const { result, ms } = await timedAsync(() => bench.session.prepare(budget));
    return { ms, at, stateBefore: state, tokensBefore: before.tokens, tokensAfter: result.tokens, checkpoints: result.checkpoints };
  } finally {
    closeBench(bench);
  }
}

/** (a) The wait at RED with a prepared checkpoint, against the floor written while the user waits. */
async function benchReadyPrepare(
  messages: readonly Message[],
  budget: number,
  tokenizer: LocalTokenizer,
  repetitions: number,
  name: string,
  store: StoreKind,
): Promise<BenchRow> {
  // The request's own tier 2 may take usage back under RED; go on past RED until Tier 3 runs in it.
  let margin = 0;
  let first = await timePrepareAtRed(messages, budget, tokenizer, true, margin, store);
  while (first.checkpoints === 0 && margin < MAX_RED_MARGIN) {
    first = await timePrepareAtRed(messages, budget, tokenizer, true, (margin += RED_MARGIN_STEP), store);
  }
  const ready: PrepareSample[] = [];
  const floor: PrepareSample[] = [];
  for (let r = 0; r < repetitions; r++) {
    // Taking turns, so a burst of load elsewhere on the machine falls on both alike.
    ready.push(r === 0 ? first : await timePrepareAtRed(messages, budget, tokenizer, true, margin, store));
    floor.push(await timePrepareAtRed(messages, budget, tokenizer, false, margin, store));
  }
  const readyMs = median(ready.map((s) => s.ms));
  const floorMs = median(floor.map((s) => s.ms));
  const sample = ready[0];
  const states = [...new Set(ready.map((s) => s.stateBefore))].join('/');
  const floorStates = [...new Set(floor.map((s) => s.stateBefore))].join('/');
  return {
    group: GROUP,
    name: `prepare() at RED with a checkpoint prepared in the background, ${name}${store === 'disk' ? '' : ', store in memory'}`,
    value: readyMs,
    unit: 'ms',
    baseline: floorMs,
    ratio: floorMs / readyMs,
    goal: `≤ ${READY_PREPARE_GOAL_MS} ms`,
    met:
      readyMs <= READY_PREPARE_GOAL_MS &&
      [...ready, ...floor].every((s) => s.checkpoints > 0) &&
      ready.every((s) => s.stateBefore === 'ready'),
    note:
      `budget ${n(budget)}, request at message ${sample.at}: ${n(sample.tokensBefore)} → ${n(sample.tokensAfter)} tokens (ready) and ` +
      `${n(floor[0].tokensBefore)} → ${n(floor[0].tokensAfter)} (baseline), ${sample.checkpoints} checkpoint; ` +
      `background preparation ${states} before the request (baseline: ${floorStates}); ` +
      `baseline: the same prepare() with nothing ready, the deterministic summary written while the user waits; ` +
      `${STORE_WORDS[store]}; median of ${repetitions}`,
  };
}

/** (b) The deterministic summary of the whole transcript, as Tier 3 writes it (in chunks when needed). */
async function benchDeterministicSummary(
  messages: readonly Message[],
  tokenizer: LocalTokenizer,
  repetitions: number,
  name: string,
): Promise<BenchRow> {
  const target = targetTokensFor(0, DEFAULT_OPTIONS.checkpointTokens);
  const summaries: number[] = [];
  const counts: number[] = [];
  let summary = '';
  let inputTokens = 0;
  for (let r = 0; r < repetitions; r++) {
    const counter = new TokenCounter(tokenizer);
    const floor = new DeterministicSummarizer({ countText: (t) => counter.countText(t), recordTools: (m) => recordToolActivity(m) });
    const request: SummaryRequest = {
      kind: 'history',
      messages,
      guide: guideFrom(ledgerFor(messages)),
      targetTokens: target,
      references: {
        archive: 'sessions/s/archive.jsonl',
        offloaded: 'sessions/s/offloaded',
        firstMessageId: messages[0]?.id ?? '',
        lastMessageId: messages[messages.length - 1]?.id ?? '',
      },
    };
    const timed = await timedAsync(() =>
      summarizeInChunks(floor, request, { countText: (t) => counter.countText(t), cancellation: NEVER_CANCELLED }),
    );
    summaries.push(timed.ms);
    summary = timed.result;
    const count = await timedAsync(() => new TokenCounter(tokenizer).measure(messages));
    counts.push(count.ms);
    inputTokens = count.result.total;
  }
  const ms = median(summaries);
  const baseline = median(counts);
  const summaryTokens = await new TokenCounter(tokenizer).countText(summary);
  return {
    group: GROUP,
    name: `deterministic summary of a whole transcript, ${name} (${messages.length} messages)`,
    value: ms,
    unit: 'ms',
    baseline,
    ratio: baseline / ms,
    note:
      `${n(inputTokens)} tokens → ${n(summaryTokens)} tokens (target ${n(target)}); ` +
      `baseline: counting every token of the same conversation with a fresh counter; median of ${repetitions}`,
  };
}

/** A ledger holding only the intent: the first user message. */
function ledgerFor(messages: readonly Message[]): Ledger {
  const first = messages.find((m) => m.role === 'user');
  return first ? { ...EMPTY_LEDGER, intent: { text: messageText(first), messageId: first.id, at: first.at ?? 0 } } : EMPTY_LEDGER;
}

/**
 * A stored session whose first `covered` messages are summarized into checkpoints of the given
 * ages (none when `ages` is empty) and the rest is live, opened from its state file.
 */
async function sessionWithCheckpoints(
  messages: readonly Message[],
  ages: readonly CheckpointAge[],
  tokenizer: LocalTokenizer,
): Promise<Bench> {
  const bench = openBench(tokenizer, messages[0]?.at ?? 0, AGING_OPTIONS);
  for (const m of messages) await arrive(bench, m);
  await bench.session.save();
  const state = bench.session.state;
  const covered = AGING_CHECKPOINTS.length * MESSAGES_PER_CHECKPOINT;
  const floor = new DeterministicSummarizer({
    countText: (t) => bench.deps.counter.countText(t),
    recordTools: (m) => recordToolActivity(m),
  });
  const checkpoints: Checkpoint[] = [];
  for (const [i, age] of ages.entries()) {
    const range = state.active.slice(i * MESSAGES_PER_CHECKPOINT, (i + 1) * MESSAGES_PER_CHECKPOINT);
    const target = targetTokensFor(age, DEFAULT_OPTIONS.checkpointTokens);
    const summary = await floor.summarize(
      {
        kind: 'history',
        messages: range,
        guide: guideFrom(state.ledger),
        targetTokens: target,
        references: {
          archive: bench.session.paths.archive,
          offloaded: bench.session.paths.offloaded,
          firstMessageId: range[0].id,
          lastMessageId: range[range.length - 1].id,
        },
      },
      NEVER_CANCELLED,
    );
    checkpoints.push({
      id: `cp-bench-${i}`,
      age,
      range: rangeLabel(i * MESSAGES_PER_CHECKPOINT + 1, (i + 1) * MESSAGES_PER_CHECKPOINT),
      messageIds: range.map((m) => m.id),
      summary,
      summarizedBy: floor.name,
      createdAt: bench.clock.now(),
      originalTokens: (await bench.deps.counter.measure(range)).total,
      currentTokens: await bench.deps.counter.countText(summary),
      compressionCount: age + 1,
      compressionNumber: i + 1,
      keyDecisions: [],
      filesModified: [],
      nextSteps: [],
    });
  }
  const stored: SessionState = { ...state, active: state.active.slice(covered), checkpoints, checkpointsMade: checkpoints.length };
  await bench.deps.store.write(bench.session.paths.state, JSON.stringify(stored));
  bench.session.dispose();
  const reopened = await ContextSession.open(state.id, AGING_OPTIONS, bench.deps);
  if (!reopened || reopened.checkpoints.length !== ages.length) throw new Error('the stored session did not reopen with its checkpoints');
  return { ...bench, session: reopened };
}

/** The budget at which the session's context stands at `usage` (the ledger's share depends on the budget, so it is found in a few steps). */
async function budgetAtUsage(session: ContextSession, usage: number): Promise<number> {
  let budget = Math.ceil((await session.measure(1_000_000)).tokens / usage);
  for (let step = 0; step < 5; step++) {
    const now = (await session.measure(budget)).usage;
    if (Math.abs(now - usage) < 0.005) break;
    budget = Math.ceil((budget * now) / usage);
  }
  return budget;
}

function agesText(checkpoints: readonly Checkpoint[]): string {
  const counts = new Map<CheckpointAge, number>();
  for (const c of checkpoints) counts.set(c.age, (counts.get(c.age) ?? 0) + 1);
  return ([3, 2, 1, 0] as const).flatMap((age) => (counts.has(age) ? [`${counts.get(age)} ${AGE_LABELS[age]}`] : [])).join(', ');
}

/** (c) One more Tier 3 in a session with 20 checkpoints, which ages all of them, against one with none. */
async function benchAging(messages: readonly Message[], tokenizer: LocalTokenizer, repetitions: number, name: string): Promise<BenchRow> {
  const covered = AGING_CHECKPOINTS.length * MESSAGES_PER_CHECKPOINT;
  const conversation = messages.slice(0, Math.min(messages.length, covered + AGING_LIVE_MESSAGES));
  const aging: number[] = [];
  const plain: number[] = [];
  let before = '';
  let after = '';
  let afterCount = 0;
  let budget = 0;
  for (let r = 0; r < repetitions; r++) {
    for (const ages of [AGING_CHECKPOINTS, []]) {
      const bench = await sessionWithCheckpoints(conversation, ages, tokenizer);
      try {
        budget = await budgetAtUsage(bench.session, AGING_USAGE);
        const checkpointsBefore = bench.session.checkpoints;
        const { result, ms } = await timedAsync(() => bench.session.prepare(budget));
        if (result.checkpoints === checkpointsBefore.length) {
          throw new Error(`Tier 3 did not run at ${(result.usage * 100).toFixed(0)}% of the budget`);
        }
        if (ages.length === 0) {
          plain.push(ms);
          continue;
        }
        aging.push(ms);
        before = agesText(checkpointsBefore);
        after = agesText(bench.session.checkpoints);
        afterCount = result.checkpoints;
      } finally {
        closeBench(bench);
      }
    }
  }
  const ms = median(aging);
  const baseline = median(plain);
  return {
    group: GROUP,
    name: `one more Tier 3 aging 20 checkpoints, ${name}`,
    value: ms,
    unit: 'ms',
    baseline,
    ratio: ms / baseline,
    note:
      `checkpoints ${AGING_CHECKPOINTS.length} (${before}) → ${afterCount} (${after}), each re-summarized from the archived originals, ` +
      `${MESSAGES_PER_CHECKPOINT} messages each; ` +
      `the request at ${AGING_USAGE * 100}% of a ${n(budget)}-token budget (tier 2 off); ` +
      `baseline: the same request with no checkpoints to age; ` +
      `ratio: aging time / baseline, lower is better; FileStore; median of ${repetitions}`,
  };
}

/** The Tier 3 figures on the largest dev transcript. */
export async function benchCheckpoints(quick = false): Promise<BenchRow[]> {
  const file = largestTranscriptFile();
  const messages = importForReplay(file).messages;
  const tokenizer = await readyTokenizer();
  const name = shortName(file);
  const inputTokens = (await new TokenCounter(tokenizer).measure(messages)).total;
  // The replay benchmark's budget: half the transcript.
  const budget = Math.ceil(inputTokens / 2);
  const repetitions = quick ? 2 : 5;
  return [
    await benchReadyPrepare(messages, budget, tokenizer, repetitions, name, 'disk'),
    await benchReadyPrepare(messages, budget, tokenizer, repetitions, name, 'memory'),
    await benchDeterministicSummary(messages, tokenizer, quick ? 3 : 7, name),
    await benchRecall(messages, tokenizer, quick ? 3 : 7, name),
    await benchAging(messages, tokenizer, quick ? 1 : 3, name),
  ];
}

runAlone(module, benchCheckpoints);
