/** Renders the context status report (Markdown). */
import { maskSecrets } from '../text/secrets';
import { describeCompression } from './lastCompression';
import { EVENT_KIND_LABELS } from '../model/compressionEvent';
import type { RecallFigures } from '../model/recallFigures';
import { describePeak } from './answerSummaryText';
import type { CheckpointLine, ContextStatus } from './contextStatus';
import { formatCount } from '../text/numbers';
import { describePromptCache } from './promptCacheWording';

const ESTIMATED = ', estimated while the tokenizer loads';

/** How many rows of compression history the report shows (the newest). */
export const REPORT_HISTORY_ROWS = 15;

export function renderStatusReport(s: ContextStatus): string {
  // Titles and warnings quote what people and tools wrote: credentials in them are masked.
  return maskSecrets(renderReport(s));
}

function renderReport(s: ContextStatus): string {
  const pct = `${(s.usage * 100).toFixed(1)}%`;
  const lines = [
    `## Context Status Report`,
    `**Timestamp:** ${new Date(s.at)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')}`,
    `**Session:** ${s.title || s.sessionId}`,
    `**Usage:** ${pct} (${formatCount(s.tokens)} / ${formatCount(s.budget)} tokens${earlierPart(s)}${s.estimated ? ESTIMATED : ''})`,
    `**Level:** ${s.level}`,
    ...(s.lastAnswerPeak ? [`**Highest level in the last answer:** ${describePeak(s.lastAnswerPeak)}`] : []),
    ...(s.lastCompression ? [`**Last compression:** ${clockTime(s.lastCompression.at)} · ${describeCompression(s.lastCompression)}`] : []),
    '',
    `### Current State`,
    `- **Tool results offloaded:** ${s.offloads.count} (${formatCount(s.offloads.savedTokens)} tokens saved)`,
    `- **Tool inputs truncated:** ${s.truncations.count} (${formatCount(s.truncations.savedTokens)} tokens saved)`,
    `- **Watermark compressions:** ${s.watermarkDrops.count} (${formatCount(s.watermarkDrops.savedTokens)} tokens saved)`,
    `- **Checkpoints made:** ${s.checkpointsMade}`,
    `- **Checkpoints:** ${s.checkpoints.length}${checkpointSizes(s.checkpoints)}`,
    `- **Goals / locked decisions:** ${s.goals} / ${s.decisions}`,
    `- **Drift events:** ${s.driftDetections}`,
    ...(s.recall ? [`- **Recall checks:** ${recallLine(s.recall)}`] : []),
    ...(s.snapshots !== undefined ? [`- **Snapshots:** ${s.snapshots}`] : []),
    ...(s.reliability
      ? [
          `- **Reliability:** ${Math.round(s.reliability.score * 100)}% ${s.reliability.level} ` +
            `(model ${s.reliability.modelFactor.toFixed(2)} × compression ${s.reliability.compressionPenalty.toFixed(2)} ` +
            `× context ${s.reliability.contextConfidence.toFixed(2)})`,
        ]
      : []),
    ...(s.backgroundCheckpoint && s.backgroundCheckpoint !== 'idle'
      ? [`- **Next checkpoint, in the background:** ${s.backgroundCheckpoint}`]
      : []),
    `- **Messages in context:** ${s.messages} (archive: ${s.archived})`,
    ...(s.promptCache ? [`- **Prompt cache:** ${describePromptCache(s.promptCache)}`] : []),
    '',
    `### Recommendation`,
    s.recommendation,
  ];
  if (s.restrictedMode) {
    lines.push('', '### Restricted Mode', ...s.restrictedMode.map((r) => `- ${r}`), '', 'Trust the workspace to turn them on.');
  }
  if (s.warnings.length > 0) lines.push('', '### Warnings', ...s.warnings.map((w) => `- ${w}`));
  if (s.checkpoints.length > 0) {
    lines.push(
      '',
      '### Checkpoints',
      '| # | Range | Age | Tokens | Original | Summarized by | Facts: kept · found · put back · lost |',
      '|---|-------|-----|--------|----------|---------------|---------------------------------------|',
    );
    s.checkpoints.forEach((c, i) =>
      lines.push(
        `| ${i + 1} | ${c.range} | ${c.age} | ${formatCount(c.tokens)} | ${formatCount(c.originalTokens)} | ${c.summarizedBy} | ` +
          `${c.recall ? `${c.recall.kept} · ${c.recall.found} · ${c.recall.putBack} · ${c.recall.lost}` : ''} |`,
      ),
    );
  }
  lines.push('', `### Compression History`);
  if (s.history.length === 0) {
    lines.push('*Nothing compressed yet.*');
  } else {
    lines.push('| Time | Type | Tokens Saved | Detail |', '|------|------|--------------|--------|');
    for (const e of s.history.slice(-REPORT_HISTORY_ROWS)) {
      lines.push(
        `| ${new Date(e.at).toISOString().slice(11, 19)} | ${EVENT_KIND_LABELS[e.kind]} | ${formatCount(e.savedTokens)} | ${e.detail.replace(/\|/g, '\\|')} |`,
      );
    }
    if (s.history.length > REPORT_HISTORY_ROWS) lines.push(`*…and ${s.history.length - REPORT_HISTORY_ROWS} earlier.*`);
  }
  return lines.join('\n');
}

/** The earlier lines within the usage, named apart: chosen at the last compression and sent unchanged since. */
function earlierPart(s: ContextStatus): string {
  if (!s.earlierTokens) return '';
  return `: ${formatCount(s.earlierTokens)} of them earlier lines, word for word, chosen at the last compression`;
}

/** Each checkpoint's age and size, in brackets, when there are any: " (recent 1,200, old 300 tokens)". */
function checkpointSizes(checkpoints: readonly CheckpointLine[]): string {
  if (checkpoints.length === 0) return '';
  return ` (${checkpoints.map((c) => `${c.age} ${formatCount(c.tokens)}`).join(', ')} tokens)`;
}

/** "14:02:11 UTC", the way the report writes times. */
function clockTime(at: number): string {
  return `${new Date(at).toISOString().slice(11, 19)} UTC`;
}

/** "38 facts: 30 in the context, 6 found by search, 2 put back, 0 lost". */
function recallLine(r: RecallFigures): string {
  return (
    `${formatCount(r.extracted)} facts: ${formatCount(r.kept)} in the context, ` +
    `${formatCount(r.found)} found by search, ${formatCount(r.putBack)} put back, ${formatCount(r.lost)} lost`
  );
}
