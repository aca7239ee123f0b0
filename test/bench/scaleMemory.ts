/**
 * Memory at scale: the command line replays a synthetic agent session (syntheticTranscript.ts) of
 * 2,500 and of 10,000 messages in a 128k and in a 1M-token window, each in a child process of its
 * own whose peak resident set size is read at exit (rssProbe.ts). The 1M window is replayed twice: at
 * the budget's default ceiling, as the extension and the command line run it, and with the ceiling
 * lifted (`--ceiling 0`), the whole window as the budget. Goals (issue 26): the 10,000-message replay
 * peaks at ≤ 300 MB in both windows and at ≤ 1.3× the 2,500-message figure, and the 1M-window replay
 * costs ≤ 1.3× the 128k-window one. The replay's own time (replay.json) is the cost;
 * the reading and import of the file are counted in the resident set but not in that time.
 * Run alone with `node out/test/bench/scaleMemory.js [--quick]` after `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BenchRow } from './benchRow';
import { runAlone } from './runAlone';
import { writeSyntheticTranscript } from './syntheticTranscript';

const GROUP = 'memory at scale';
const MB = 1024 * 1024;
const SMALL_WINDOW = 128_000;
const LARGE_WINDOW = 1_000_000;
const PEAK_LIMIT_MB = 300;
const FLAT_LIMIT = 1.3;

interface ScaleRun {
  readonly messages: number;
  readonly window: number;
  /** The budget the replay ran with: the window less the answer reserve, at most the ceiling. */
  readonly budget: number;
  readonly fileBytes: number;
  readonly rss: number;
  /** The replay's own time, from replay.json. */
  readonly ms: number;
  readonly inputTokens: number;
  readonly finalTokens: number;
}

/** The built command line: `npm run bench` builds it first. */
function cliPath(): string {
  const cli = path.resolve(__dirname, '../../../dist/cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first.`);
  return cli;
}

function replayInChild(transcript: string, messages: number, window: number, fileBytes: number, ...more: string[]): ScaleRun {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-scale-'));
  try {
    const out = path.join(folder, 'out');
    const rssFile = path.join(folder, 'rss');
    const args = [
      '--require',
      path.join(__dirname, 'rssProbe.js'),
      cliPath(),
      'replay',
      transcript,
      '--budget',
      String(window),
      '--out',
      out,
      '--json',
      ...more,
    ];
    const child = spawnSync(process.execPath, args, {
      encoding: 'utf8',
      env: { ...process.env, CTX_BENCH_RSS_FILE: rssFile },
      maxBuffer: 64 * MB,
    });
    if (child.status !== 0) throw new Error(`replay of ${messages} messages failed (${child.status}): ${child.stderr}`);
    const report = JSON.parse(child.stdout) as { ms: number; messages: number; inputTokens: number; finalTokens: number; budget: number };
    return {
      messages: report.messages,
      window,
      budget: report.budget,
      fileBytes,
      rss: Number(fs.readFileSync(rssFile, 'utf8')),
      ms: report.ms,
      inputTokens: report.inputTokens,
      finalTokens: report.finalTokens,
    };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const count = (n: number) => n.toLocaleString('en-US');
const windowName = (w: number) => (w >= 1_000_000 ? `${w / 1_000_000}M` : `${w / 1000}k`);
const about = (r: ScaleRun) =>
  `${count(r.messages)} messages (${(r.fileBytes / MB).toFixed(1)} MB file, ${count(r.inputTokens)} tokens) in a ` +
  `${windowName(r.window)} window (budget ${count(r.budget)}): final ${count(r.finalTokens)} tokens, ` +
  `replay ${count(Math.round(r.ms))} ms; dist/cli.js replay in a child process`;

function timeRow(large: ScaleRun, small: ScaleRun, how: string): BenchRow {
  return {
    group: GROUP,
    name: `replay time of ${count(large.messages)} messages, ${windowName(large.window)} window${how}`,
    value: large.ms,
    unit: 'ms',
    baseline: small.ms,
    ratio: large.ms / small.ms,
    goal: `≤ ${FLAT_LIMIT}× the 128k-window time`,
    met: large.ms / small.ms <= FLAT_LIMIT,
    note: `budget ${count(large.budget)}; baseline: the same session in a 128k window; ratio: this / 128k (the same cost = 1)`,
  };
}

export async function benchScaleMemory(quick: boolean): Promise<BenchRow[]> {
  const base = quick ? 250 : 2_500;
  const long = base * 4;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-scale-files-'));
  try {
    const shortFile = path.join(folder, `short.jsonl`);
    const longFile = path.join(folder, `long.jsonl`);
    const shortBytes = writeSyntheticTranscript(shortFile, base);
    const longBytes = writeSyntheticTranscript(longFile, long);
    const shortSmall = replayInChild(shortFile, base, SMALL_WINDOW, shortBytes);
    const longSmall = replayInChild(longFile, long, SMALL_WINDOW, longBytes);
    const longLarge = replayInChild(longFile, long, LARGE_WINDOW, longBytes);
    const longLifted = replayInChild(longFile, long, LARGE_WINDOW, longBytes, '--ceiling', '0');
    const peakRow = (r: ScaleRun, how = ''): BenchRow => ({
      group: GROUP,
      name: `peak resident memory, ${count(r.messages)} messages, ${windowName(r.window)} window${how}`,
      value: r.rss / MB,
      unit: 'MB',
      baseline: shortSmall.rss / MB,
      ratio: r.rss / shortSmall.rss,
      goal: quick ? undefined : `≤ ${PEAK_LIMIT_MB} MB and ≤ ${FLAT_LIMIT}× the ${count(base)}-message figure`,
      met: quick ? undefined : r.rss / MB <= PEAK_LIMIT_MB && r.rss / shortSmall.rss <= FLAT_LIMIT,
      note: `${about(r)}; baseline: ${count(base)} messages, 128k window; ratio: this / baseline (flat = 1)`,
    });
    return [
      {
        group: GROUP,
        name: `peak resident memory, ${count(base)} messages, 128k window`,
        value: shortSmall.rss / MB,
        unit: 'MB',
        note: about(shortSmall),
      },
      peakRow(longSmall),
      peakRow(longLarge, ', default ceiling'),
      peakRow(longLifted, ', ceiling lifted'),
      timeRow(longLarge, longSmall, ', default ceiling'),
      timeRow(longLifted, longSmall, ', ceiling lifted'),
    ];
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

runAlone(module, benchScaleMemory);
