/**
 * What a batch of engine events took out of the context, counted by kind: "24 results offloaded,
 * 14 checkpoints". Events that saved nothing by themselves (a summary line of a checkpoint, a skipped
 * or failed compression, snapshots, the drift check) are not compressions.
 */
import type { CompressionEvent } from '../model/compressionEvent';
import { formatCount } from '../text/numbers';

/** The kinds of compression, in the order they are named. */
export type CompressionKind = 'offload' | 'truncate' | 'watermark' | 'compress-results' | 'checkpoint' | 'age';

const KIND_ORDER: readonly CompressionKind[] = ['offload', 'truncate', 'watermark', 'compress-results', 'checkpoint', 'age'];

/** How each kind is counted in words: one, many. */
const KIND_WORDS: Readonly<Record<CompressionKind, readonly [string, string]>> = {
  offload: ['result offloaded', 'results offloaded'],
  truncate: ['input truncated', 'inputs truncated'],
  watermark: ['watermark applied', 'watermarks applied'],
  'compress-results': ['old result compressed', 'old results compressed'],
  checkpoint: ['checkpoint', 'checkpoints'],
  age: ['checkpoint aged', 'checkpoints aged'],
};

/** What a set of events took out of the context. */
export interface CompressionTally {
  /** Compressions of every kind together. */
  readonly count: number;
  readonly savedTokens: number;
  /** How many of each kind, in a stable order; kinds that did not happen are left out. */
  readonly kinds: readonly { readonly kind: CompressionKind; readonly count: number }[];
}

/** The kind of compression an event is, or undefined when it took nothing out. */
export function compressionKindOf(e: CompressionEvent): CompressionKind | undefined {
  switch (e.kind) {
    case 'offload':
    case 'truncate':
    case 'watermark':
    case 'compress-results':
    case 'age':
      return e.kind;
    case 'checkpoint':
      return e.name === 'checkpoint-created' ? 'checkpoint' : undefined;
    default:
      return undefined;
  }
}

/** Counts the compressions among events. */
export function tallyCompressions(events: readonly CompressionEvent[]): CompressionTally {
  const counts = new Map<CompressionKind, number>();
  let savedTokens = 0;
  for (const e of events) {
    const kind = compressionKindOf(e);
    if (!kind) continue;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    savedTokens += e.savedTokens;
  }
  const kinds = KIND_ORDER.filter((k) => counts.has(k)).map((kind) => ({ kind, count: counts.get(kind) ?? 0 }));
  return { count: kinds.reduce((n, k) => n + k.count, 0), savedTokens, kinds };
}

/** "24 results offloaded, 14 checkpoints". */
export function describeKinds(tally: CompressionTally): string {
  return tally.kinds.map(({ kind, count }) => `${formatCount(count)} ${KIND_WORDS[kind][count === 1 ? 0 : 1]}`).join(', ');
}

/** "once", "twice", "6 times". */
export function timesWord(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${formatCount(count)} times`;
}
