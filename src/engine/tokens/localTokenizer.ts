import { readFileSync } from 'node:fs';
import type { EncodingName, Tokenizer } from '../ports';
import { BpeTokenCounter } from './bpe';
import { isRankData, type RankData } from './rankData';

/** Loads an encoding's rank data; called once, when the encoder is first needed. */
export type RankLoader = (encoding: EncodingName) => unknown;

/**
 * Loads rank data from the js-tiktoken package. The path is computed so that bundlers leave the
 * require to run time: a rank file is megabytes, and nothing should load it before it is needed.
 */
export function loadPackageRanks(encoding: EncodingName): unknown {
  return loadRankFile(`js-tiktoken/ranks/${encoding}`);
}

/**
 * Reads a rank file (`module.exports = {…}`, the object written as JSON) as data, so that nothing
 * keeps its text once the packed table (`packedRanks.ts`) is built. Required as a module, its
 * megabytes of ranks are a literal of compiled code that the engine holds on to for good (2.3 MB
 * of a replay's live set); a file in another shape is required, and left out of the module cache.
 */
export function loadRankFile(id: string): unknown {
  const file = require.resolve(id);
  const data = rankFileData(readFileSync(file, 'utf8'));
  if (data !== undefined) return data;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
    return require(file);
  } finally {
    delete require.cache[file];
  }
}

/** The object a rank file exports, when it is written as JSON; undefined otherwise. */
export function rankFileData(text: string): unknown {
  const exported = text.indexOf('module.exports');
  const start = exported < 0 ? -1 : text.indexOf('{', exported);
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A tokenizer that builds its encoder in this thread, lazily, on the first `whenReady()` or
 * `countMany()`. Used by the command line, by tests, and by the extension host when its worker
 * cannot run. Building takes about 100 ms and blocks this thread meanwhile.
 */
export class LocalTokenizer implements Tokenizer {
  private counter: BpeTokenCounter | undefined;
  private building: Promise<BpeTokenCounter> | undefined;

  /**
   * @param loadRanks where the rank data comes from; the js-tiktoken package by default
   */
  constructor(
    readonly encoding: EncodingName,
    private readonly loadRanks: RankLoader = loadPackageRanks,
  ) {}

  get ready(): boolean {
    return this.counter !== undefined;
  }

  /** Rejects, now and on every later call, when the rank data cannot be loaded. */
  async whenReady(): Promise<void> {
    await this.encoder();
  }

  async countMany(texts: readonly string[]): Promise<number[]> {
    const counter = await this.encoder();
    return texts.map((text) => counter.count(text));
  }

  private encoder(): Promise<BpeTokenCounter> {
    this.building ??= this.build();
    return this.building;
  }

  private async build(): Promise<BpeTokenCounter> {
    // Let the caller finish its turn first: whoever triggered the build while estimating should
    // not be held up by it.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    const data = this.loadRanks(this.encoding);
    if (!isRankData(data)) throw new Error(`Rank data for ${this.encoding} has an unexpected shape`);
    this.counter = new BpeTokenCounter(data satisfies RankData);
    return this.counter;
  }
}
