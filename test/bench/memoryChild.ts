/**
 * Runs in a child process started with `--expose-gc` by memory.ts: replays one transcript as
 * `replay` does and prints its heap figures as one JSON line. A process of its own, so nothing
 * else the benchmarks allocated is counted.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replayTranscript } from '../../src/cli/replay/replayTranscript';
import { FileStore } from '../../src/engine/storage/fileStore';
import { DEFAULT_ANSWER_RESERVE_TOKENS } from '../../src/engine/budget';
import { importForReplay, readyCounter } from './replayFixtures';

/** The heap figures of one replay, in bytes. */
export interface MemoryFigures {
  /** Heap in use with the tokenizer built and the transcript imported, after a full collection. */
  readonly before: number;
  /** The most heap in use after any message of the replay (garbage not yet collected included). */
  readonly peak: number;
  /** Heap still in use after the replay and a full collection, the session still held. */
  readonly retained: number;
  /** The process's peak resident set size. */
  readonly maxRss: number;
  readonly messages: number;
}

async function main(file: string): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc');
  const counter = await readyCounter();
  const imported = importForReplay(file);
  const inputTokens = (await counter.measure(imported.messages)).total;
  collect();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-memory-'));
  try {
    const { session } = await replayTranscript(imported, {
      maxInputTokens: Math.ceil(inputTokens / 2) + DEFAULT_ANSWER_RESERVE_TOKENS,
      store: new FileStore(folder),
      counter,
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    collect();
    const retained = process.memoryUsage().heapUsed;
    const figures: MemoryFigures = {
      before,
      peak,
      retained,
      maxRss: process.resourceUsage().maxRSS * 1024,
      messages: session.messages.length,
    };
    console.log(JSON.stringify(figures));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv[2] ?? '').catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
