/** Renders the status in seed 000's "Context Status Report" format (Markdown). */
import { TIER_LABELS } from './compressionEvent';
import type { ContextStatus } from './status';

const n = (x: number) => Math.round(x).toLocaleString('en-US');

/** How many rows of compression history the report shows (the newest). */
export const REPORT_HISTORY_ROWS = 15;

export function renderStatusReport(s: ContextStatus): string {
  const pct = `${(s.usage * 100).toFixed(1)}%`;
  const lines = [
    `## Context Status Report`,
    `**Timestamp:** ${new Date(s.at).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    `**Session:** ${s.title || s.sessionId}`,
    `**Estimated Usage:** ${pct} (${n(s.tokens)} / ${n(s.budget)} tokens${s.estimated ? ', estimated while the tokenizer loads' : ''})`,
    `**Level:** ${s.level}`,
    '',
    `### Current State`,
    `- **Tool results offloaded:** ${s.offloads.count} (${n(s.offloads.savedTokens)} tokens saved)`,
    `- **Tool inputs truncated:** ${s.truncations.count} (${n(s.truncations.savedTokens)} tokens saved)`,
    `- **Watermark compressions:** ${s.watermarkDrops.count} (${n(s.watermarkDrops.savedTokens)} tokens saved)`,
    `- **Summarisations performed:** 0`,
    `- **Messages in context:** ${s.messages} (archive: ${s.archived})`,
    '',
    `### Recommendation`,
    s.recommendation,
  ];
  if (s.warnings.length > 0) lines.push('', '### Warnings', ...s.warnings.map((w) => `- ${w}`));
  lines.push('', `### Compression History`);
  if (s.history.length === 0) {
    lines.push('*Nothing compressed yet.*');
  } else {
    lines.push('| Time | Type | Tokens Saved | Detail |', '|------|------|--------------|--------|');
    for (const e of s.history.slice(-REPORT_HISTORY_ROWS)) {
      lines.push(`| ${new Date(e.at).toISOString().slice(11, 19)} | ${TIER_LABELS[e.tier]} | ${n(e.savedTokens)} | ${e.detail.replace(/\|/g, '\\|')} |`);
    }
    if (s.history.length > REPORT_HISTORY_ROWS) lines.push(`*…and ${s.history.length - REPORT_HISTORY_ROWS} earlier.*`);
  }
  return lines.join('\n');
}
