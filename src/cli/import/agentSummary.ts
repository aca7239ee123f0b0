/**
 * An agent's own summary of the conversation it condensed (Roo Code's message flagged
 * `isSummary: true`, OpenHands' condensation events). Like every agent's compaction summary it is
 * left out when asked (ctx does the compressing, and the summary would leak old facts into a
 * replay), or else kept as injected user text that starts with a marker naming it.
 */
import { injectedTextBlock } from '../../engine/host/messages';
import type { ImportSink } from './importSink';
import type { JsonObject } from './jsonShape';
import { renderContent } from './renderContent';

/** How a kept agent summary starts, so no reader mistakes it for the user's or the agent's words. */
export const AGENT_SUMMARY_MARKER = '[Agent condensed summary]';

/** Where a summary came from in the source. */
export interface SummarySource {
  readonly sourceId: string;
  readonly at?: number;
  readonly line?: number;
}

/** Leaves the summary out (counted) unless it is to be kept, then adds it marked and injected. */
export function addAgentSummary(text: string, source: SummarySource, sink: ImportSink, keep: boolean): void {
  if (!keep || text.trim() === '') return sink.skip('native-compaction-summary');
  sink.add(source.sourceId, [{ role: 'user', blocks: [injectedTextBlock(`${AGENT_SUMMARY_MARKER}\n${text}`)] }], source.at, source.line);
}

/** Handles a message flagged `isSummary: true` and returns true; false for any other message. */
export function addFlaggedSummary(raw: JsonObject, sourceId: string, sink: ImportSink, keep: boolean, at?: number): boolean {
  if (raw.isSummary !== true) return false;
  addAgentSummary(renderContent(raw.content).text, { sourceId, ...(at === undefined ? {} : { at }) }, sink, keep);
  return true;
}
