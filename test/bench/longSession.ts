/**
 * Long sessions: a whole replay (add and prepare per message, as `@ctx` and the command line drive
 * a session) of a constructed agent session at 1×, 2× and 4× its length, in a fixed window, with the
 * session's files written to disk as the extension writes them. The goal is linear growth: twice
 * the session in at most 2.2 times the time, four times in at most 4.4 times. Each size gets a
 * fresh counter over the same warm tokenizer, so no size profits from another's cache. The 1× size
 * is replayed before the longer ones and again after them, and the ratios are taken against the
 * mean of both: a machine whose speed drifts over the minutes the longer replays take (a shared
 * disk, a busy host) moves the baseline with it instead of the ratio.
 * Run alone with `node out/test/bench/longSession.js [--quick]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replayTranscript } from '../../src/cli/replay/replayTranscript';
import { FileStore } from '../../src/engine/storage/fileStore';
import { TokenCounter } from '../../src/engine/tokens/counter';
import type { BenchRow } from './benchRow';
import { readyTokenizer } from './replayFixtures';
import { syntheticSession } from './syntheticSession';
import { runAlone } from './runAlone';

const GROUP = 'long session';
/** A common window: long sessions outgrow it many times over. */
const MAX_INPUT_TOKENS = 64_000;
/** Twice the session may take at most 2.2 times as long, four times at most 4.4 times. */
const LINEAR_SLACK = 1.1;

interface SizeRun {
  readonly messages: number;
  readonly ms: number;
  readonly bytes: number;
  readonly checkpoints: number;
  readonly finalTokens: number;
}

async function replayAtSize(messages: number, tokenizer: Awaited<ReturnType<typeof readyTokenizer>>): Promise<SizeRun> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-long-'));
  try {
    const conversation = syntheticSession(messages);
    const started = performance.now();
    const { figures, session } = await replayTranscript(
      { format: 'claude-code', messages: conversation },
      { maxInputTokens: MAX_INPUT_TOKENS, store: new FileStore(folder), counter: new TokenCounter(tokenizer) },
    );
    const ms = performance.now() - started;
    session.dispose();
    return { messages, ms, bytes: folderBytes(folder), checkpoints: figures.checkpointsMade, finalTokens: figures.finalTokens };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

function formatMs(ms: number): string {
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

export async function benchLongSession(quick: boolean): Promise<BenchRow[]> {
  const tokenizer = await readyTokenizer();
  const base = quick ? 250 : 2_500;
  // The smallest size first warms the code paths; it is measured again for the figures.
  await replayAtSize(Math.ceil(base / 5), tokenizer);
  const first = await replayAtSize(base, tokenizer);
  const two = await replayAtSize(base * 2, tokenizer);
  const four = await replayAtSize(base * 4, tokenizer);
  const again = await replayAtSize(base, tokenizer);
  const one: SizeRun = { ...first, ms: (first.ms + again.ms) / 2 };
  const note = (r: SizeRun) =>
    `${r.messages.toLocaleString('en-US')} messages in a ${MAX_INPUT_TOKENS.toLocaleString('en-US')}-token window: ${r.checkpoints} checkpoints, ` +
    `final ${r.finalTokens.toLocaleString('en-US')} tokens, ${(r.bytes / 1024 / 1024).toFixed(1)} MB on disk, ` +
    `${(r.ms / r.messages).toFixed(2)} ms a message; FileStore`;
  const scaled = (times: number, r: SizeRun): BenchRow => {
    const limit = times * LINEAR_SLACK;
    return {
      group: GROUP,
      name: `whole replay: time at ${times}× the session`,
      value: r.ms,
      unit: 'ms',
      baseline: one.ms,
      ratio: r.ms / one.ms,
      goal: `≤ ${limit.toFixed(1)}× the 1× time`,
      met: r.ms / one.ms <= limit,
      note: `ratio: ${times}× time / 1× time (linear = ${times}); ${note(r)}`,
    };
  };
  return [
    {
      group: GROUP,
      name: `whole replay, ${one.messages.toLocaleString('en-US')} messages`,
      value: one.ms,
      unit: 'ms',
      note: `mean of ${formatMs(first.ms)} before the longer replays and ${formatMs(again.ms)} after them; ${note(one)}`,
    },
    scaled(2, two),
    scaled(4, four),
    {
      group: GROUP,
      name: 'bytes written at 4× the session',
      value: four.bytes / 1024 / 1024,
      unit: 'MB',
      baseline: one.bytes / 1024 / 1024,
      ratio: four.bytes / one.bytes,
      note: 'the archive, the state, offloaded results, snapshots and the session log; ratio: 4× / 1× (linear = 4)',
    },
  ];
}

runAlone(module, benchLongSession);
