/** What `replay` prints with --json and writes to replay.json: the replay's figures and where things are. */
import * as path from 'node:path';
import type { ImportStats } from './import/importTypes';
import type { ReplayFigures } from './replay/replayFigures';
import { describePromptCache, formatCount } from '../engine/host/display';
import { SESSIONS_FOLDER } from '../engine/host/storage';
import { renderImportStats } from './importStatsLine';
import { FIGURES_FILE } from './outputFolder';

export interface ReplayReport extends ReplayFigures {
  /** The transcript file, as an absolute path. */
  readonly transcript: string;
  /** Conversations in the file. */
  readonly sessions: number;
  /** Which of them was replayed, counting from 1 (`--session`). */
  readonly session: number;
  /** The replayed conversation's id in the transcript (a session, task or subagent id). */
  readonly transcriptSessionId: string;
  /** What the import read, skipped, dropped and stood in for, over the whole file. */
  readonly importStats: ImportStats;
  /** The replayed session's id: its storage is `<out>/sessions/<sessionId>`. */
  readonly sessionId: string;
  /** The output folder, as an absolute path. */
  readonly out: string;
  /** The final context's Markdown file. */
  readonly contextFile: string;
  /** What the import and the session noticed, in plain words (skipped lines, unwritable files…). */
  readonly warnings: readonly string[];
}
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function budgetSource(r: ReplayReport): string {
  const from = `from ${formatCount(r.maxInputTokens)} maximum input tokens, less the answer reserve`;
  return r.ceilingTokens > 0 && r.budget === r.ceilingTokens ? `${from}, at most the ceiling; --ceiling 0 lifts it` : from;
}

/** The summary `replay` prints without --json. */
export function renderReplaySummary(r: ReplayReport): string {
  const reduction = r.inputTokens > 0 ? 1 - r.finalTokens / r.inputTokens : 0;
  const cache = describePromptCache(r.promptCache);
  const which = r.sessions > 1 ? `, session ${r.session} of ${r.sessions}: ${r.transcriptSessionId}` : '';
  const lines = [
    `Replayed ${r.transcript} (${r.format}${which}): ${formatCount(r.messages)} messages, ${formatCount(r.toolCalls)} tool calls.`,
    ...(r.sessions > 1 ? [`Sessions: ${r.sessions} in the file; replay another with --session <number or id>`] : []),
    `Import:   ${renderImportStats(r.importStats)}`,
    `Budget:   ${formatCount(r.budget)} tokens (${budgetSource(r)})`,
    `Input:    ${formatCount(r.inputTokens)} tokens without compression`,
    `Context:  ${formatCount(r.finalTokens)} tokens at the end (${pct(r.finalUsage)} of the budget, ${r.finalLevel}; ` +
      `${pct(reduction)} smaller than the input), peak ${formatCount(r.peakTokens)}`,
    `Tiers:    ${formatCount(r.offloaded)} results offloaded, ${formatCount(r.truncated)} inputs truncated, ` +
      `${formatCount(r.watermarked)} tool blocks dropped by the watermark, ` +
      `${formatCount(r.checkpoints)} checkpoints in the end from ${formatCount(r.checkpointsMade)} made, ${formatCount(r.snapshots)} snapshots`,
    ...(cache ? [`Cache:    ${cache}`] : []),
    `Time:     ${(r.ms / 1000).toFixed(2)} s`,
    `Wrote ${r.contextFile}, the figures in ${path.join(r.out, FIGURES_FILE)} and the session in ${path.join(r.out, SESSIONS_FOLDER, r.sessionId)}.`,
  ];
  if (r.finalTokens > r.budget) lines.push(`The final context is still over the budget: the tiers that ran could not shrink it further.`);
  return `${lines.join('\n')}\n`;
}
