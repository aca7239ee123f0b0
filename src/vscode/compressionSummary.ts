/** A short Markdown account of what a compression did, for the chat and notifications. */
import { formatCount, levelFigure, levelShift } from '../engine/host/display';
import type { PreparedContext } from '../engine/host/session';

export function summarizeCompression(p: PreparedContext): string {
  const saved = p.events.reduce((n, e) => n + e.savedTokens, 0);
  const tokens = `${formatCount(p.tokens)} / ${formatCount(p.budget)} tokens`;
  if (p.events.length === 0) return `Nothing to compress right now: the context is at ${levelFigure(p)} (${tokens}).`;
  return [
    `Compressed the context ${levelShift(p.before, p)}: saved ${formatCount(saved)} tokens (${tokens} now).`,
    '',
    ...p.events.map((e) => `- ${e.detail}`),
  ].join('\n');
}
