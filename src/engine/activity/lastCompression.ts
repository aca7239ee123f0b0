/** The latest compression of a session, as the status bar and the status report tell it: when, what, tokens saved. */
import type { CompressionEvent } from '../model/compressionEvent';
import { earlierLinesNote, levelChange } from '../levelWording';
import type { ContextFigures } from '../model/preparedContext';
import { formatCount } from '../text/numbers';
import { describeKinds, tallyCompressions, type CompressionTally } from './compressionTally';

export interface CompressionRecord {
  /** When the latest of its events happened (ms since the epoch). */
  readonly at: number;
  readonly tally: CompressionTally;
  /** Where the context stood before and after, when the compression came with a request (without the earlier lines). */
  readonly levels?: CompressionLevels;
}

/** What the next request needs before and after, without the earlier lines, which `earlier` names apart. */
export interface CompressionLevels {
  readonly before: ContextFigures;
  readonly after: ContextFigures;
  readonly earlier?: { readonly usage: number };
}

/** The compression among a batch of events, or undefined when they took nothing out of the context. */
export function compressionRecord(events: readonly CompressionEvent[], levels?: CompressionLevels): CompressionRecord | undefined {
  const tally = tallyCompressions(events);
  if (tally.count === 0) return undefined;
  const at = Math.max(...events.map((e) => e.at));
  return { at, tally, ...(levels && levels.after.usage < levels.before.usage ? { levels } : {}) };
}

/** "2 results offloaded, 1 checkpoint · 12,340 tokens saved · reached 80% (RED), compressed to 52% (ORANGE)", without the time. */
export function describeCompression(r: CompressionRecord): string {
  return [
    describeKinds(r.tally),
    // With the levels known, the saving is what the request needs less, like the chat says; else the steps' own.
    `${formatCount(r.levels ? r.levels.before.tokens - r.levels.after.tokens : r.tally.savedTokens)} tokens saved`,
    ...(r.levels ? [`${levelChange(r.levels.before, r.levels.after)}${r.levels.earlier ? earlierLinesNote(r.levels.earlier) : ''}`] : []),
  ].join(' · ');
}
