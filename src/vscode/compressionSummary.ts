/** A short Markdown account of what a compression did, for the chat and notifications. */
import type { PreparedContext } from '../engine/session';

export function summarizeCompression(p: PreparedContext): string {
  const saved = p.events.reduce((n, e) => n + e.savedTokens, 0);
  const usage = `${(p.usage * 100).toFixed(0)}% ${p.level} (${p.tokens.toLocaleString('en-US')} / ${p.budget.toLocaleString('en-US')} tokens)`;
  if (p.events.length === 0) return `Nothing to compress right now: the context is at ${usage}.`;
  return [
    `Compressed the context: saved ${saved.toLocaleString('en-US')} tokens; now at ${usage}.`,
    '',
    ...p.events.map((e) => `- ${e.detail}`),
  ].join('\n');
}
