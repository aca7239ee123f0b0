/** A short Markdown account of what a compression did, for the chat and notifications. */
import type { PreparedContext } from '../engine/session/contextSession';
import { formatCount } from '../engine/text/numbers';

export function summarizeCompression(p: PreparedContext): string {
  const saved = p.events.reduce((n, e) => n + e.savedTokens, 0);
  const usage = `${(p.usage * 100).toFixed(0)}% ${p.level} (${formatCount(p.tokens)} / ${formatCount(p.budget)} tokens)`;
  if (p.events.length === 0) return `Nothing to compress right now: the context is at ${usage}.`;
  return [`Compressed the context: saved ${formatCount(saved)} tokens; now at ${usage}.`, '', ...p.events.map((e) => `- ${e.detail}`)].join(
    '\n',
  );
}
