/**
 * An answer's summary in the chat: at most one line for each kind of thing ctx did, with a count, e.g.
 * "Compressed 6 times in this answer, 180,412 tokens saved: 4 results offloaded, 2 checkpoints". Every
 * level message names where the context stood before ctx acted and after.
 */
import { earlierLinesNote, levelChange } from '../levelWording';
import { formatCount } from '../text/numbers';
import type { AnswerSummary, Peak, Repeated } from './answerActivity';
import { describeKinds, timesWord } from './compressionTally';

/** The paragraphs of the summary (Markdown), or none when there is nothing to tell. */
export interface AnswerSummaryText {
  /** What ctx did: compressions and the level. */
  readonly lines: readonly string[];
  /** What needs the user's attention (the drift check, then warnings), one line per kind. */
  readonly warnings: readonly string[];
  /** Set when the context went CRITICAL in this answer: the line that goes with the offer of a fresh session. */
  readonly critical?: string;
}

/** The summary in words. `detailsLink` (Markdown) follows the first line: where the full account is. */
export function renderAnswerSummary(s: AnswerSummary, detailsLink = ''): AnswerSummaryText {
  const lines: string[] = [];
  const c = s.compressions;
  const snapshots = s.snapshots > 0 ? `${formatCount(s.snapshots)} snapshot${s.snapshots === 1 ? '' : 's'} taken` : '';
  if (c.count > 0) {
    lines.push(
      `Compressed ${timesWord(c.count)} in this answer, ${formatCount(c.savedTokens)} tokens saved: ${describeKinds(c)}${snapshots ? `; ${snapshots}` : ''}.`,
    );
  } else if (snapshots) {
    lines.push(`${snapshots[0].toUpperCase()}${snapshots.slice(1)} in this answer.`);
  }
  const peak = s.peak;
  const levelWorthTelling =
    peak && (peak.after.usage < peak.before.usage || peak.before.level === 'RED' || peak.before.level === 'CRITICAL');
  if (peak && levelWorthTelling && !s.critical) {
    lines.push(`The context ${peak.after.usage < peak.before.usage ? '' : 'is '}${describePeak(peak)}.`);
  }
  const warnings = [...(s.drift ? [s.drift] : []), ...s.warnings].map((w) => `⚠ ${withCount(w)}`);
  const critical = s.critical
    ? `**Context CRITICAL**${s.critical.count > 1 ? ` ${timesWord(s.critical.count)} in this answer` : ''}. ${s.critical.text} ` +
      `A checkpoint and a snapshot were taken${s.critical.count > 1 ? ' each time' : ''}; you can continue in a fresh session from the checkpoint.`
    : undefined;
  const first = lines.length > 0 || critical || warnings.length > 0;
  if (first && detailsLink) {
    if (lines.length > 0) lines[0] = `${lines[0]} ${detailsLink}`;
    else lines.push(detailsLink);
  }
  return { lines, warnings, ...(critical ? { critical } : {}) };
}

/**
 * An answer's highest point and where that request's steps brought it, with the earlier lines within it named apart:
 * "reached 76% (RED), compressed to 30% (YELLOW), 12% of it earlier lines, word for word".
 */
export function describePeak(peak: Peak): string {
  return `${levelChange(peak.before, peak.after)}${earlierLinesNote(peak.earlier)}`;
}

function withCount(r: Repeated): string {
  return r.count > 1 ? `${r.text} (${timesWord(r.count)} in this answer)` : r.text;
}
