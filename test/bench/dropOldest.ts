/**
 * The naive baseline every context manager is measured against: drop the oldest messages until
 * the rest fits the budget. A leading system prompt is kept, as most chat clients keep theirs, and
 * a tool result whose call was dropped goes too, since no API accepts an answer to an unseen call.
 */
import type { TokenCounter } from '../../src/engine/tokens/counter';
import type { Message } from '../../src/engine/types';

export interface DroppedContext {
  readonly messages: Message[];
  readonly tokens: number;
}

export async function dropOldestUntilFits(messages: readonly Message[], budget: number, counter: TokenCounter): Promise<DroppedContext> {
  const measured = await counter.measure(messages);
  const tokensOf = new Map(messages.map((m, i) => [m, measured.messageTokens[i]]));
  const size = (m: Message) => tokensOf.get(m) ?? 0;
  const head = messages[0]?.role === 'system' ? [messages[0]] : [];
  let rest = messages.slice(head.length);
  let tokens = measured.total;
  let start = 0;
  while (tokens > budget && start < rest.length) tokens -= size(rest[start++]);
  rest = rest.slice(start);
  const calls = new Set(rest.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : []))));
  const kept = [...head, ...rest]
    .map((m) => ({ ...m, blocks: m.blocks.filter((b) => b.type !== 'toolResult' || calls.has(b.callId)) }))
    .filter((m) => m.blocks.length > 0);
  return { messages: kept, tokens: (await counter.measure(kept)).total };
}
