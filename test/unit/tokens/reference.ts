/** js-tiktoken itself, the reference our counts must equal, and its rank data. */
import type { EncodingName } from '../../../src/engine/ports';
import { isRankData, type RankData } from '../../../src/engine/tokens/rankData';

/** The part of js-tiktoken's `Tiktoken` the tests use. */
export interface ReferenceEncoder {
  encode(text: string, allowedSpecial: string[], disallowedSpecial: string[]): number[];
}

type ReferenceConstructor = new (ranks: RankData) => ReferenceEncoder;

/** The package ships ESM-only types, so TypeScript cannot import it here; its CommonJS build runs. */
function tiktokenClass(): ReferenceConstructor {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const lite = require('js-tiktoken/lite') as { Tiktoken: ReferenceConstructor };
  return lite.Tiktoken;
}

/** The package's rank data as the package loads it: the module itself, not ctx's reading of its file. */
export function rankData(encoding: EncodingName): RankData {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the reference is the module as js-tiktoken ships it
  const data = require(`js-tiktoken/ranks/${encoding}`) as unknown;
  if (!isRankData(data)) throw new Error(`js-tiktoken's ${encoding} ranks have an unexpected shape`);
  return data;
}

/** A new js-tiktoken encoder (about 0.5 s to build for o200k_base). */
export function referenceEncoder(encoding: EncodingName): ReferenceEncoder {
  return new (tiktokenClass())(rankData(encoding));
}

/** The reference count: special-token text counts as ordinary text, as in our counter. */
export function referenceCount(encoder: ReferenceEncoder, text: string): number {
  return encoder.encode(text, [], []).length;
}
