/**
 * What an explicit compression did, in the chat and in a notification (its first line): what the next request sends
 * before and after, like with like, and the earlier lines it holds named apart (design §4.1). Nothing is called a
 * saving that is not one.
 */
import { levelFigure, levelShift } from '../levelWording';
import type { PreparedContext } from '../model/preparedContext';
import { formatCount } from '../text/numbers';

export function summarizeCompression(p: Pick<PreparedContext, 'events' | 'needed' | 'budget' | 'tokens' | 'usage' | 'level'>): string {
  const budget = formatCount(p.budget);
  if (p.events.length === 0) {
    return `Nothing to compress right now: the context is at ${levelFigure(p)} (${formatCount(p.tokens)} / ${budget} tokens).`;
  }
  const { before, after, earlier } = p.needed;
  const fewer = before.tokens - after.tokens;
  const needs = `the next request sends ${formatCount(before.tokens)} → ${formatCount(after.tokens)} tokens of ${budget}`;
  const first =
    fewer > 0
      ? `Compressed the context ${levelShift(before, after)}: ${needs}, ${formatCount(fewer)} fewer.`
      : `The compression saved nothing: ${needs} (${levelFigure(after)}).`;
  const room =
    earlier.tokens > 0
      ? ` Of them, ${formatCount(earlier.tokens)} tokens are earlier lines, word for word, kept until the next compression.`
      : '';
  return [`${first}${room}`, '', ...p.events.map((e) => `- ${e.detail}`)].join('\n');
}
