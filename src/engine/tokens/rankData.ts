/**
 * The rank data js-tiktoken ships for each encoding, and the lookup table built from it.
 *
 * The table is keyed by "binary strings" (one char per byte, char codes 0–255) rather than by
 * js-tiktoken's comma-joined byte lists: a piece's key is then the piece itself when it is ASCII,
 * and a lookup hashes one short string instead of building and hashing a long one.
 */
import { PackedRankTable } from './packedRanks';

/** The shape of a js-tiktoken rank module (`js-tiktoken/ranks/<name>`). */
export interface RankData {
  /** The pre-tokenization regex, used with the flags `gu`. */
  readonly pat_str: string;
  readonly special_tokens: Readonly<Record<string, number>>;
  /** Lines of `! <first rank> <base64 token> <base64 token>…`, ranks consecutive from the first. */
  readonly bpe_ranks: string;
}

/** Token bytes (as a binary string) to rank. */
export interface RankTable {
  get(bytes: string): number | undefined;
  has(bytes: string): boolean;
}

/** Whether a value loaded at run time (a required rank file) has the shape of rank data. */
export function isRankData(value: unknown): value is RankData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Partial<Record<keyof RankData, unknown>>;
  return typeof data.pat_str === 'string' && typeof data.bpe_ranks === 'string' && typeof data.special_tokens === 'object';
}

/** Decodes every line of `bpe_ranks` into a table from token bytes to rank (packed outside the heap, see `packedRanks.ts`). */
export function buildRankTable(data: RankData): RankTable {
  const tokens: [string, number][] = [];
  for (const line of data.bpe_ranks.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    // fields[0] is the '!' marker, fields[1] the rank of the first token on the line.
    const firstRank = Number.parseInt(fields[1], 10);
    for (let i = 2; i < fields.length; i++) tokens.push([atob(fields[i]), firstRank + i - 2]);
  }
  return new PackedRankTable(tokens);
}
