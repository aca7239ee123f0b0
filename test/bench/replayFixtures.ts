/**
 * What the replay, tier and memory benchmarks share: the dev transcripts imported as the command
 * line imports them, a ready token counter, conversations scaled up by repetition, and timing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { importTranscript } from '../../src/cli/import/importTranscript';
import type { ImportResult } from '../../src/cli/import/importTypes';
import { FileStore } from '../../src/engine/storage/fileStore';
import { TokenCounter } from '../../src/engine/tokens/counter';
import { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import type { Block, Message } from '../../src/engine/types';
import { readManifest, transcriptPath } from '../unit/import/realTranscripts';

/** Every dev transcript of every set, smallest file first. */
export function devTranscriptFiles(): string[] {
  const size = (file: string) => fs.statSync(transcriptPath(file)).size;
  return readManifest()
    .map((entry) => entry.file)
    .sort((a, b) => size(a) - size(b));
}

/** The largest dev transcript file. */
export function largestTranscriptFile(): string {
  const files = devTranscriptFiles();
  return files[files.length - 1];
}

/** Imports as `replay` does: Claude Code's own compaction summary left out. */
export function importForReplay(file: string, keepNativeCompaction = false): ImportResult {
  return importTranscript(fs.readFileSync(transcriptPath(file), 'utf8'), { keepNativeCompaction });
}

/** The command line's tokenizer, its encoder built. */
export async function readyTokenizer(): Promise<LocalTokenizer> {
  const tokenizer = new LocalTokenizer('o200k_base');
  await tokenizer.whenReady();
  return tokenizer;
}

/** A counter over a tokenizer whose encoder is built. */
export async function readyCounter(): Promise<TokenCounter> {
  return new TokenCounter(await readyTokenizer());
}

/** A short, recognisable name for a transcript file in a table. */
export function shortName(file: string): string {
  return file
    .replace(/\.(jsonl|json|traj)$/g, '')
    .replace(/\.traj$/, '')
    .replace(/([0-9a-f]{8})-[0-9a-f-]{27}/, '$1');
}

/**
 * The conversation repeated `times` times, one copy after another, every message and tool call id
 * made unique: the same session's shape at several times its length.
 */
export function repeatedConversation(messages: readonly Message[], times: number): Message[] {
  const copies: Message[] = [];
  for (let copy = 0; copy < times; copy++) {
    const suffix = copy === 0 ? '' : `~${copy}`;
    for (const m of messages) copies.push(copy === 0 ? m : { ...m, id: m.id + suffix, blocks: m.blocks.map((b) => renamed(b, suffix)) });
  }
  return copies;
}

function renamed(block: Block, suffix: string): Block {
  if (block.type === 'toolCall') return { ...block, id: block.id + suffix };
  if (block.type === 'toolResult') return { ...block, callId: block.callId + suffix };
  return { ...block };
}

export async function timedAsync<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** The folder a {@link BenchStore} names its files in, the same in every run. */
const BENCH_STORE_SHOWN_AT = path.join(os.tmpdir(), 'ctx-bench-store');

/**
 * A store on disk, in a fresh temporary folder, that names its files (in an offloaded result's
 * notice, which the context holds) under one fixed folder: the temporary folder's random name would
 * otherwise change what the same replay counts from one run to the next.
 */
export class BenchStore extends FileStore {
  constructor(readonly folder: string) {
    super(folder);
  }

  override locate(file: string): string {
    return `${BENCH_STORE_SHOWN_AT}/${file}`;
  }
}
