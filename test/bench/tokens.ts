/**
 * Token counting benchmark: throughput against bare js-tiktoken, pathological runs, the cost of
 * measuring a long conversation after one new message, and encoder build time.
 * Run alone with `node out/test/bench/tokens.js`.
 */
import type { EncodingName } from '../../src/engine/ports';
import { BpeTokenCounter } from '../../src/engine/tokens/bpe';
import { TokenCounter } from '../../src/engine/tokens/counter';
import { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import { message, textBlock, type Message } from '../../src/engine/types';
import { rankData, referenceCount, referenceEncoder } from '../unit/tokens/reference';
import { transcriptFiles, transcriptStrings } from '../unit/tokens/transcripts';
import { median, type BenchRow } from './benchRow';
import { runAlone } from './runAlone';

const GROUP = 'tokens';
const ENCODING: EncodingName = 'o200k_base';
/** Decoded transcript text per file for the throughput run (about 2 MB over the dev set). */
const THROUGHPUT_CHARS_PER_FILE = 200_000;
const THROUGHPUT_REPETITIONS = 3;
const LONG_RUN_CHARS = 200_000;
/** js-tiktoken is quadratic on one long piece: 10,000 chars already take about 7 s. */
const BASELINE_RUN_CHARS = 10_000;
const CONVERSATION_TOKENS = 200_000;
const NEW_MESSAGE_TOKENS = 2_000;
/** The dev set's first transcript averages 285 content tokens a message (146,776 over 515). */
const MESSAGE_TOKENS = 285;
const INCREMENTAL_REPETITIONS = 21;
const RECOUNT_REPETITIONS = 5;
const BUILD_REPETITIONS = 5;

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

async function timedAsync<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

function devTexts(): string[] {
  const texts = transcriptFiles().flatMap((file) => transcriptStrings(file, THROUGHPUT_CHARS_PER_FILE));
  if (texts.length === 0) throw new Error('The real transcripts are missing: test/fixtures/transcripts/set1');
  return texts;
}

/** (a) Counting real transcript text, from a cold piece cache, against bare js-tiktoken. */
function throughput(texts: readonly string[]): BenchRow[] {
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  const reference = referenceEncoder(ENCODING);
  const data = rankData(ENCODING);
  const baseline = Array.from({ length: THROUGHPUT_REPETITIONS }, () =>
    timed(() => texts.reduce((sum, text) => sum + referenceCount(reference, text), 0)),
  );
  const cold = Array.from({ length: THROUGHPUT_REPETITIONS }, () => {
    const counter = new BpeTokenCounter(data);
    return timed(() => texts.reduce((sum, text) => sum + counter.count(text), 0));
  });
  const warmCounter = new BpeTokenCounter(data);
  texts.forEach((text) => warmCounter.count(text));
  const warm = Array.from({ length: THROUGHPUT_REPETITIONS }, () =>
    timed(() => texts.reduce((sum, text) => sum + warmCounter.count(text), 0)),
  );
  const expected = baseline[0].result;
  for (const run of [...cold, ...warm]) {
    if (run.result !== expected) throw new Error(`Token totals differ from js-tiktoken: ${run.result} ≠ ${expected}`);
  }
  const mbPerSecond = (ms: number) => chars / 1e6 / (ms / 1000);
  const baselineRate = mbPerSecond(median(baseline.map((run) => run.ms)));
  const coldRate = mbPerSecond(median(cold.map((run) => run.ms)));
  const warmRate = mbPerSecond(median(warm.map((run) => run.ms)));
  const note = `${texts.length} texts, ${(chars / 1e6).toFixed(2)} M chars, ${expected} tokens, identical to js-tiktoken`;
  return [
    {
      group: GROUP,
      name: 'throughput on dev transcripts, cold cache',
      value: coldRate,
      unit: 'MB/s',
      baseline: baselineRate,
      ratio: coldRate / baselineRate,
      goal: '≥3× js-tiktoken',
      met: coldRate / baselineRate >= 3,
      note,
    },
    {
      group: GROUP,
      name: 'throughput on dev transcripts, warm cache',
      value: warmRate,
      unit: 'MB/s',
      baseline: baselineRate,
      ratio: warmRate / baselineRate,
      note: 'the same texts counted again',
    },
  ];
}

/**
 * (b) One unbroken run of a letter: ours at 200,000 chars, both at a size js-tiktoken finishes.
 * Every run uses a new counter, so the piece cache cannot answer for the run.
 */
function longRuns(): BenchRow[] {
  const data = rankData(ENCODING);
  const countFresh = (text: string) => {
    const counter = new BpeTokenCounter(data);
    return timed(() => counter.count(text));
  };
  const long = 'a'.repeat(LONG_RUN_CHARS);
  const longMs = median(Array.from({ length: 5 }, () => countFresh(long).ms));
  const short = 'a'.repeat(BASELINE_RUN_CHARS);
  const ours = countFresh(short);
  const reference = referenceEncoder(ENCODING);
  const baseline = timed(() => referenceCount(reference, short));
  if (ours.result !== baseline.result) throw new Error(`Long-run counts differ: ${ours.result} ≠ ${baseline.result}`);
  return [
    {
      group: GROUP,
      name: `${LONG_RUN_CHARS.toLocaleString('en')}-char unbroken run`,
      value: longMs,
      unit: 'ms',
      goal: '< 1000 ms',
      met: longMs < 1000,
      note: 'js-tiktoken not run at this size (quadratic: minutes)',
    },
    {
      group: GROUP,
      name: `${BASELINE_RUN_CHARS.toLocaleString('en')}-char unbroken run`,
      value: ours.ms,
      unit: 'ms',
      baseline: baseline.ms,
      ratio: baseline.ms / ours.ms,
      note: 'one run each; identical counts',
    },
  ];
}

/**
 * Consecutive transcript texts joined into messages of about {@link MESSAGE_TOKENS} tokens
 * until they reach `tokens` in all.
 */
function buildConversation(texts: readonly string[], counter: BpeTokenCounter, tokens: number): { messages: Message[]; used: number } {
  const messages: Message[] = [];
  let total = 0;
  let used = 0;
  while (total < tokens && used < texts.length) {
    const parts: string[] = [];
    let size = 0;
    while (size < MESSAGE_TOKENS && used < texts.length) {
      parts.push(texts[used]);
      size += counter.count(texts[used++]);
    }
    total += size;
    messages.push(message(`m${messages.length}`, messages.length % 2 === 0 ? 'user' : 'assistant', [textBlock(parts.join('\n'))]));
  }
  return { messages, used };
}

/** Text of about `tokens` tokens, starting at texts[from]; each repetition takes new text. */
function takeTokens(texts: readonly string[], from: number, counter: BpeTokenCounter, tokens: number): { text: string; next: number } {
  const parts: string[] = [];
  let size = 0;
  let at = from;
  while (size < tokens && at < texts.length) {
    const text = texts[at++];
    const count = counter.count(text);
    if (size + count > tokens * 1.1) continue; // Keep the message near its nominal size.
    parts.push(text);
    size += count;
  }
  return { text: parts.join('\n'), next: at };
}

async function readyTokenizer(): Promise<LocalTokenizer> {
  const tokenizer = new LocalTokenizer(ENCODING);
  await tokenizer.whenReady();
  return tokenizer;
}

/**
 * (c) Measuring a 200,000-token conversation after one new 2,000-token message, against a full
 * recount by a fresh counter: over a fresh tokenizer (nothing cached at all), and over the same
 * tokenizer (whose piece cache already knows every word of the conversation).
 */
async function incremental(texts: readonly string[]): Promise<BenchRow[]> {
  const tokenizer = await readyTokenizer();
  const sizing = new BpeTokenCounter(rankData(ENCODING));
  const { messages, used } = buildConversation(texts, sizing, CONVERSATION_TOKENS);
  const counter = new TokenCounter(tokenizer);
  const before = await counter.measure(messages);

  const incrementalMs: number[] = [];
  let next = used;
  for (let i = 0; i < INCREMENTAL_REPETITIONS; i++) {
    const taken = takeTokens(texts, next, sizing, NEW_MESSAGE_TOKENS);
    next = taken.next;
    const added = message(`new${i}`, 'user', [textBlock(taken.text)]);
    incrementalMs.push((await timedAsync(() => counter.measure([...messages, added]))).ms);
  }
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  for (let i = 0; i < RECOUNT_REPETITIONS; i++) {
    const fresh = await readyTokenizer();
    coldMs.push((await timedAsync(() => new TokenCounter(fresh).measure(messages))).ms);
    warmMs.push((await timedAsync(() => new TokenCounter(tokenizer).measure(messages))).ms);
  }
  const value = median(incrementalMs);
  const cold = median(coldMs);
  const warm = median(warmMs);
  const name = 'measure() after one new 2,000-token message in a 200,000-token conversation';
  const size = `${messages.length} messages, ${before.total} tokens`;
  return [
    {
      group: GROUP,
      name,
      value,
      unit: 'ms',
      baseline: cold,
      ratio: cold / value,
      goal: '≤3 ms and ≥80× a full recount',
      met: value <= 3 && cold / value >= 80,
      note: `${size}; baseline: fresh counter over a fresh tokenizer (build not timed)`,
    },
    {
      group: GROUP,
      name: `${name}, against a warm piece cache`,
      value,
      unit: 'ms',
      baseline: warm,
      ratio: warm / value,
      note:
        'baseline: fresh counter over the same tokenizer; ' +
        'new text must be merged while the recount only looks up known pieces, so this cannot reach the 100× size ratio',
    },
  ];
}

/** (d) Building the encoder: decoding the rank table, against js-tiktoken's constructor. */
function buildTimes(): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const encoding of ['o200k_base', 'cl100k_base'] satisfies EncodingName[]) {
    const data = rankData(encoding);
    const ours = median(Array.from({ length: BUILD_REPETITIONS }, () => timed(() => new BpeTokenCounter(data)).ms));
    const baseline = median(Array.from({ length: 3 }, () => timed(() => referenceEncoder(encoding)).ms));
    rows.push({
      group: GROUP,
      name: `encoder build, ${encoding}`,
      value: ours,
      unit: 'ms',
      baseline,
      ratio: baseline / ours,
      note: 'rank file already loaded',
    });
  }
  return rows;
}

/** Runs every token benchmark once; each figure is a median over repetitions. */
export async function benchTokens(): Promise<BenchRow[]> {
  const texts = devTexts();
  return [...buildTimes(), ...throughput(texts), ...longRuns(), ...(await incremental(texts))];
}

runAlone(module, () => benchTokens());
