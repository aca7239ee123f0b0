/**
 * The deterministic tiers (1: offload, 2: truncate inputs on disk, the watermark) on the largest dev
 * transcript: each tier's own pass over the whole conversation, and a whole replay (add and prepare
 * per message), at the transcript's length and at twice and four times it. The goal is linear
 * scaling: twice the input in at most 2.2 times the time. Each tier's time is compared with a full
 * token count of the same conversation, the one cost no compression can avoid.
 * Run alone with `node out/test/bench/tiers.js [--quick]`.
 */
import { DEFAULT_ANSWER_RESERVE_TOKENS } from '../../src/engine/budget';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../src/engine/options';
import { filesWrittenBy } from '../../src/cli/replay/transcriptWorkspace';
import { replayTranscript } from '../../src/cli/replay/replayTranscript';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import { offloadDecision, offloadResult } from '../../src/engine/tiers/offload';
import { truncatePersistedInputs } from '../../src/engine/tiers/truncateInputs';
import { applyWatermark } from '../../src/engine/tiers/watermark';
import { TokenCounter } from '../../src/engine/tokens/counter';
import type { Message } from '../../src/engine/types';
import { median, type BenchRow } from './benchRow';
import { importForReplay, largestTranscriptFile, readyTokenizer, repeatedConversation, shortName, timedAsync } from './replayFixtures';
import { runAlone } from './runAlone';

const GROUP = 'tiers';
/** Lower than the 15,000-token default so tier 1 has real work on a transcript whose results are at most ~8,000 tokens. */
const OFFLOAD_THRESHOLD_TOKENS = 1_000;
/** Claude Code's subagent tool stands in for ctx_checkpoint: a finished phase of the work. */
const CHECKPOINT_TOOL = 'Task';
/** Twice the input may take at most this many times as long. */
const LINEAR_SLACK = 1.1;

type Pass = (messages: readonly Message[], counter: TokenCounter) => Promise<unknown>;

/** Tier 1 as the session runs it on arrival: size every result, offload those above the threshold. */
const offloadPass: Pass = async (messages, counter) => {
  const store = new MemoryStore();
  let offloaded = 0;
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.type !== 'toolResult') continue;
      const tokens = await counter.countText(b.content);
      if (offloadDecision(b.content, tokens, { thresholdTokens: OFFLOAD_THRESHOLD_TOKENS }) === 'keep') continue;
      await offloadResult(b, b.toolName ?? 'tool', tokens, m.at ?? 0, { store, folder: 'sessions/s/offloaded' });
      offloaded++;
    }
  }
  return offloaded;
};

/** Tier 2 over the whole conversation, against the files the transcript's writes left. */
const truncatePass: Pass = async (messages, counter) => {
  const files = filesWrittenBy(messages);
  return (
    await truncatePersistedInputs(messages, DEFAULT_OPTIONS.recentMessagesKept, { files, countText: (t) => counter.countText(t), now: 0 })
  ).records.length;
};

/** The watermark at the last tool call of the conversation's first three quarters. */
const watermarkPass: Pass = async (messages) => {
  const calls = messages
    .slice(0, Math.floor(messages.length * 0.75))
    .flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : [])));
  return applyWatermark(messages, calls[calls.length - 1]).removedBlocks;
};

/** The whole replay, at a budget of half the conversation's tokens, with the watermark moved at each subagent task. */
const replayPass: Pass = async (messages, counter) => {
  const input = (await counter.measure(messages)).total;
  const engine: EngineOptions = {
    ...DEFAULT_OPTIONS,
    offloadThresholdTokens: OFFLOAD_THRESHOLD_TOKENS,
    checkpointTools: [CHECKPOINT_TOOL],
  };
  return replayTranscript(
    { format: 'claude-code', messages },
    { maxInputTokens: Math.ceil(input / 2) + DEFAULT_ANSWER_RESERVE_TOKENS, store: new MemoryStore(), counter, engine },
  );
};

const countPass: Pass = (messages, counter) => counter.measure(messages);

/** A sample shorter than this is mostly timer noise: short passes are run several times per sample. */
const MIN_SAMPLE_MS = 20;

/**
 * Median time of one pass at each size, each run with a fresh counter (no block counts cached)
 * over the same warm tokenizer. The sizes take turns within each repetition, so a burst of load
 * from elsewhere on the machine falls on all of them alike. A pass is run `loops` times per sample.
 */
async function timeSizes(
  pass: Pass,
  sizes: readonly (readonly Message[])[],
  repetitions: number,
  loops: number,
  freshCounter: () => TokenCounter,
): Promise<number[]> {
  const samples = sizes.map((): number[] => []);
  for (let i = 0; i < repetitions; i++) {
    for (const [s, messages] of sizes.entries()) {
      const sample = await timedAsync(async () => {
        for (let loop = 0; loop < loops; loop++) await pass(messages, freshCounter());
      });
      samples[s].push(sample.ms / loops);
    }
  }
  return samples.map(median);
}

/** How many runs of a pass make a sample of at least {@link MIN_SAMPLE_MS}; the first run also warms the JIT. */
async function loopsFor(pass: Pass, messages: readonly Message[], freshCounter: () => TokenCounter): Promise<number> {
  const once = await timedAsync(() => pass(messages, freshCounter()));
  return Math.max(1, Math.ceil(MIN_SAMPLE_MS / Math.max(once.ms, 0.01)));
}

/** Times each tier and the whole replay at 1×, 2× and 4× the largest transcript. */
export async function benchTiers(quick = false): Promise<BenchRow[]> {
  const file = largestTranscriptFile();
  const imported = importForReplay(file).messages;
  // Counters share one tokenizer whose piece cache is filled once, below, so the sizes are compared on equal terms.
  const tokenizer = await readyTokenizer();
  const freshCounter = () => new TokenCounter(tokenizer);
  const scales = quick ? [1, 2] : [1, 2, 4];
  const repetitions = quick ? 3 : 7;
  const conversations = new Map(scales.map((s) => [s, repeatedConversation(imported, s)]));
  await countPass(conversations.get(scales[scales.length - 1]) ?? [], freshCounter());

  const passes: [string, Pass, string][] = [
    ['tier 1 (offload) over every result', offloadPass, `threshold ${OFFLOAD_THRESHOLD_TOKENS.toLocaleString('en-US')} tokens`],
    [
      'tier 2 (truncate inputs on disk) over every write',
      truncatePass,
      'repeated copies append unmatched edits, so the workspace files grow with the input',
    ],
    ['watermark at three quarters', watermarkPass, ''],
    [
      'whole replay (add + prepare per message)',
      replayPass,
      `MemoryStore, budget half the input, watermark at each ${CHECKPOINT_TOOL} call; ` +
        `every request saves what changed in the state (a journal line), so the replay grows with its input`,
    ],
  ];
  const rows: BenchRow[] = [];
  const [baseline] = await timeSizes(countPass, [imported], repetitions, await loopsFor(countPass, imported, freshCounter), freshCounter);
  const name = shortName(file);
  for (const [label, pass, about] of passes) {
    const measured = await timeSizes(
      pass,
      scales.map((scale) => conversations.get(scale) ?? []),
      repetitions,
      await loopsFor(pass, imported, freshCounter),
      freshCounter,
    );
    const times = new Map(scales.map((scale, i) => [scale, measured[i]]));
    const base = times.get(1) ?? NaN;
    rows.push({
      group: GROUP,
      name: `${label}, ${name} (${imported.length} messages)`,
      value: base,
      unit: 'ms',
      baseline,
      ratio: baseline / base,
      note: `${about ? `${about}; ` : ''}baseline: counting every token of the same conversation with a fresh counter`,
    });
    for (const scale of scales.slice(1)) {
      const growth = (times.get(scale) ?? NaN) / base;
      rows.push({
        group: GROUP,
        name: `${label}: time at ${scale}× the input`,
        value: times.get(scale) ?? NaN,
        unit: 'ms',
        baseline: base,
        ratio: growth,
        goal: `≤ ${(scale * LINEAR_SLACK).toFixed(1)}× the 1× time`,
        met: growth <= scale * LINEAR_SLACK,
        note: `ratio: ${scale}× time / 1× time (linear = ${scale})`,
      });
    }
  }
  return rows;
}

runAlone(module, benchTiers);
