/**
 * What the prompt cache makes of the requests ctx sends, against a plain compaction and against no compression at
 * all, on the real sessions of every split. Each session is replayed as `replay` does in a fixed window; every
 * request that an answer followed is recorded, with the share of it that the previous request sent the same (what
 * Anthropic, OpenAI and Gemini cache), and its input priced as Anthropic bills it (`cachePricing.ts`: a cache read
 * at 0.1× the base price, the rest written at 1.25×, summary requests included: a summary asked as the conversation's
 * next request reads the conversation from the cache).
 *
 * The plain compaction is Claude Code's: requests only grow until 83% of the budget, then one summary request (the
 * conversation so far, read from the cache, and its prompt) and a request that starts anew with a 2,000-token
 * summary and the latest messages that fit in 20% of the budget. No compression sends everything every time (and
 * overflows the window). A host's system prompt and tool definitions, the same in every request, are left out of
 * all three.
 *
 * Run alone: `node out/test/bench/promptCache.js [--split set1,set3] [--window 60000] [--json]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importTranscript } from '../../src/cli/import/importTranscript';
import type { ImportResult } from '../../src/cli/import/importTypes';
import { replayTranscript } from '../../src/cli/replay/replayTranscript';
import { budgetFor, DEFAULT_ANSWER_RESERVE_TOKENS } from '../../src/engine/budget';
import { EMPTY_CACHE_TALLY, reuseShare, withRequest, withSummaryRequest, type CacheTally } from '../../src/engine/model/cacheTally';
import { pricedInput, totalPricedInput } from '../../src/engine/promptCache/cachePricing';
import type { TokenCounter } from '../../src/engine/tokens/counter';
import type { Message } from '../../src/engine/types';
import { TRANSCRIPT_SETS_FOLDER } from '../unit/support/repository';
import type { BenchRow } from './benchRow';
import { BenchStore, readyCounter } from './replayFixtures';

const GROUP = 'prompt cache';
/** The window every session is replayed in. */
export const CACHE_WINDOW_TOKENS = 60_000;
/** Claude Code's plain compaction: where it fires, what it keeps, how long its summary and its prompt are. */
export const PLAIN_COMPACTION = { triggerShare: 0.83, keepShare: 0.2, summaryTokens: 2_000, promptTokens: 600 } as const;
const SPLITS = ['set1', 'set2', 'set3', 'validation'] as const;
/** The quick run replays this many of the smallest sessions that need compressing, of the first split only. */
const QUICK_SESSIONS = 2;

/** One session's requests under each way of keeping the context. */
export interface SessionCache {
  readonly split: string;
  readonly file: string;
  readonly inputTokens: number;
  readonly ctx: CacheTally;
  readonly plain: CacheTally;
  readonly none: CacheTally;
  readonly ms: number;
}

/**
 * The requests of a plain compaction over messages of the given token counts: one before each answer, growing until
 * `triggerShare` of the budget, then compacted to a summary and the latest messages within `keepShare` of it.
 */
export function plainCompaction(
  messages: readonly { readonly role: string; readonly tokens: number }[],
  budget: number,
): SessionCache['plain'] {
  let tally: CacheTally = EMPTY_CACHE_TALLY;
  let summary = 0;
  let live: number[] = [];
  let previous = 0;
  let sameAsBefore = false;
  const total = () => summary + live.reduce((a, b) => a + b, 0);
  for (const m of messages) {
    if (m.role === 'assistant' && live.length > 0) {
      let size = total();
      if (size >= PLAIN_COMPACTION.triggerShare * budget) {
        // The summary request: the conversation as last sent (read from the cache), what came since and the prompt.
        const read = sameAsBefore ? previous : 0;
        const input = size + PLAIN_COMPACTION.promptTokens;
        tally = withSummaryRequest(tally, input, read);
        const kept: number[] = [];
        let room = PLAIN_COMPACTION.keepShare * budget;
        for (let i = live.length - 1; i >= 0 && live[i] <= room; i--) {
          kept.unshift(live[i]);
          room -= live[i];
        }
        live = kept;
        summary = PLAIN_COMPACTION.summaryTokens;
        sameAsBefore = false;
        size = total();
      }
      tally = withRequest(tally, {
        sentTokens: size,
        reusedTokens: sameAsBefore ? previous : 0,
        invalidatedTokens: sameAsBefore || previous === 0 ? 0 : previous,
      });
      previous = size;
      sameAsBefore = true;
    }
    live.push(m.tokens);
  }
  return tally;
}

/** The requests of no compression at all: everything so far, before each answer. */
export function noCompression(messages: readonly { readonly role: string; readonly tokens: number }[]): CacheTally {
  let tally: CacheTally = EMPTY_CACHE_TALLY;
  let size = 0;
  let previous = 0;
  for (const m of messages) {
    if (m.role === 'assistant' && size > 0) {
      tally = withRequest(tally, { sentTokens: size, reusedTokens: previous, invalidatedTokens: 0 });
      previous = size;
    }
    size += m.tokens;
  }
  return tally;
}

/** Replays one session in `window` and sets its requests beside those of the two baselines. */
export async function sessionCache(split: string, file: string, window: number, counter: TokenCounter): Promise<SessionCache | undefined> {
  const folder = path.join(TRANSCRIPT_SETS_FOLDER, split);
  let imported: ImportResult;
  try {
    imported = importTranscript(fs.readFileSync(path.join(folder, file), 'utf8'), { keepNativeCompaction: false });
  } catch {
    return undefined;
  }
  const messages: readonly Message[] = imported.messages;
  if (messages.length === 0) return undefined;
  const sized = [];
  for (const m of messages) sized.push({ role: m.role, tokens: await counter.countMessage(m) });
  const inputTokens = sized.reduce((n, m) => n + m.tokens, 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-cache-'));
  try {
    const { figures, session } = await replayTranscript(
      { format: imported.format, messages },
      { maxInputTokens: window, store: new BenchStore(dir), counter, stopwatch: { now: () => performance.now() } },
    );
    session.dispose();
    const budget = budgetFor({ maxInputTokens: window, answerReserveTokens: DEFAULT_ANSWER_RESERVE_TOKENS });
    return {
      split,
      file,
      inputTokens,
      ctx: figures.promptCache,
      plain: plainCompaction(sized, budget),
      none: noCompression(sized),
      ms: figures.ms,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The session files of a split, smallest first. */
function filesOf(split: string): string[] {
  const folder = path.join(TRANSCRIPT_SETS_FOLDER, split);
  const entries = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { file: string }[];
  const size = (file: string) => fs.statSync(path.join(folder, file)).size;
  return entries.map((e) => e.file).sort((a, b) => size(a) - size(b));
}

/** A split's sessions whose input is larger than the window (the others need no compression), each replayed. */
export async function splitCache(split: string, window: number, counter: TokenCounter, quick = false): Promise<SessionCache[]> {
  const out: SessionCache[] = [];
  for (const file of filesOf(split)) {
    if (quick && out.length >= QUICK_SESSIONS) break;
    const measured = await sessionCache(split, file, window, counter);
    if (measured && measured.inputTokens > window) out.push(measured);
  }
  return out;
}

/** Figures of a set of sessions: token-weighted reuse and priced input, with the ratios the issue asks for. */
export interface CacheFigures {
  readonly sessions: number;
  readonly requests: number;
  readonly ctxReuse: number;
  readonly plainReuse: number;
  readonly noneReuse: number;
  readonly ctxSent: number;
  readonly plainSent: number;
  readonly ctxPriced: number;
  readonly plainPriced: number;
  readonly nonePriced: number;
  readonly ctxRebases: number;
  readonly ctxSummaryRequests: number;
  readonly plainSummaryRequests: number;
  /** Share of the summary requests' input read from the cache. */
  readonly ctxSummaryReuse: number;
  readonly plainSummaryReuse: number;
  readonly ms: number;
}

const add = (a: CacheTally, b: CacheTally): CacheTally => ({
  requests: a.requests + b.requests,
  sentTokens: a.sentTokens + b.sentTokens,
  reusedTokens: a.reusedTokens + b.reusedTokens,
  rebases: a.rebases + b.rebases,
  invalidatedTokens: a.invalidatedTokens + b.invalidatedTokens,
  summaryRequests: a.summaryRequests + b.summaryRequests,
  summaryInputTokens: a.summaryInputTokens + b.summaryInputTokens,
  summaryReusedTokens: (a.summaryReusedTokens ?? 0) + (b.summaryReusedTokens ?? 0),
});

const summaryReuse = (t: CacheTally) => (t.summaryInputTokens > 0 ? (t.summaryReusedTokens ?? 0) / t.summaryInputTokens : 0);

export function cacheFigures(sessions: readonly SessionCache[]): CacheFigures {
  const ctx = sessions.map((s) => s.ctx).reduce(add, EMPTY_CACHE_TALLY);
  const plain = sessions.map((s) => s.plain).reduce(add, EMPTY_CACHE_TALLY);
  const none = sessions.map((s) => s.none).reduce(add, EMPTY_CACHE_TALLY);
  return {
    sessions: sessions.length,
    requests: ctx.requests,
    ctxReuse: reuseShare(ctx),
    plainReuse: reuseShare(plain),
    noneReuse: reuseShare(none),
    ctxSent: ctx.sentTokens + ctx.summaryInputTokens,
    plainSent: plain.sentTokens + plain.summaryInputTokens,
    ctxPriced: sessions.reduce((n, s) => n + totalPricedInput(s.ctx), 0),
    plainPriced: sessions.reduce((n, s) => n + totalPricedInput(s.plain), 0),
    nonePriced: sessions.reduce((n, s) => n + pricedInput(s.none), 0),
    ctxRebases: ctx.rebases,
    ctxSummaryRequests: ctx.summaryRequests,
    plainSummaryRequests: plain.summaryRequests,
    ctxSummaryReuse: summaryReuse(ctx),
    plainSummaryReuse: summaryReuse(plain),
    ms: sessions.reduce((n, s) => n + s.ms, 0),
  };
}

/** The benchmark's rows: per split, ctx's reuse and priced input against the plain compaction's and no compression's. */
export async function benchPromptCache(quick: boolean): Promise<BenchRow[]> {
  const counter = await readyCounter();
  const rows: BenchRow[] = [];
  const every: SessionCache[] = [];
  for (const split of quick ? SPLITS.slice(0, 1) : SPLITS) {
    const sessions = await splitCache(split, CACHE_WINDOW_TOKENS, counter, quick);
    every.push(...sessions);
    rows.push(...cacheRows(split, cacheFigures(sessions)));
  }
  // The figures a reader asks for first (BENCHMARKS.md's current figures) are those of every split together.
  return [...cacheRows(quick ? 'quick run' : 'every split', cacheFigures(every)), ...rows];
}

/** A scope's two rows: ctx's reuse, and its priced input against the plain compaction's. */
function cacheRows(scope: string, f: CacheFigures): BenchRow[] {
  if (f.sessions === 0) return [];
  const named = `${scope}, ${f.sessions} sessions over ${CACHE_WINDOW_TOKENS.toLocaleString('en-US')} tokens`;
  return [
    {
      group: GROUP,
      name: `${named}: share of each request reused from the previous one (ctx; baseline: plain compaction)`,
      value: 100 * f.ctxReuse,
      unit: '%',
      baseline: 100 * f.plainReuse,
      goal: '≥ 90%',
      met: f.ctxReuse >= 0.9,
      note:
        `plain compaction ${(100 * f.plainReuse).toFixed(1)}%, no compression ${(100 * f.noneReuse).toFixed(1)}%; ` +
        `${f.requests} requests, ${f.ctxRebases} rebases`,
    },
    {
      group: GROUP,
      name: `${named}: priced input, summary requests included (ctx; baseline: plain compaction)`,
      value: f.ctxPriced / f.plainPriced,
      unit: '× plain',
      baseline: 1,
      goal: '≤ 0.8×, and below no compression',
      met: f.ctxPriced <= 0.8 * f.plainPriced && f.ctxPriced < f.nonePriced,
      note:
        `no compression ${(f.nonePriced / f.plainPriced).toFixed(2)}×; tokens sent ${(f.ctxSent / f.plainSent).toFixed(2)}× plain; ` +
        `summary requests ${f.ctxSummaryRequests} (plain ${f.plainSummaryRequests})`,
    },
  ];
}

/** One line of figures, as the command prints them. */
function summaryLine(f: CacheFigures): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    `${f.sessions} sessions, ${f.requests} requests`,
    `reuse ctx ${pct(f.ctxReuse)} plain ${pct(f.plainReuse)} none ${pct(f.noneReuse)}`,
    `priced ctx/plain ${(f.ctxPriced / f.plainPriced).toFixed(3)} none/plain ${(f.nonePriced / f.plainPriced).toFixed(3)}`,
    `sent ctx/plain ${(f.ctxSent / f.plainSent).toFixed(3)}`,
    `rebases ${f.ctxRebases}, summaries ctx ${f.ctxSummaryRequests} plain ${f.plainSummaryRequests}`,
    `summary input from the cache ctx ${pct(f.ctxSummaryReuse)} plain ${pct(f.plainSummaryReuse)}`,
    `${(f.ms / 1000).toFixed(1)} s`,
  ].join(' · ');
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const splits = (arg('--split') ?? SPLITS.join(',')).split(',');
  const window = Number(arg('--window') ?? CACHE_WINDOW_TOKENS);
  const counter = await readyCounter();
  const all: SessionCache[] = [];
  for (const split of splits) {
    const sessions = await splitCache(split, window, counter);
    all.push(...sessions);
    console.log(`${split}: ${summaryLine(cacheFigures(sessions))}`);
  }
  console.log(`all: ${summaryLine(cacheFigures(all))}`);
  if (process.argv.includes('--json')) console.log(JSON.stringify(all, null, 1));
}

if (require.main === module) void main();
