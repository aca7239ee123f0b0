/**
 * A request ctx sends as it came, with no session to prepare it (a caller's summarization of a history it rendered
 * as one text, a request of instructions only), was measured by its caller against the window ctx reports, which
 * may be larger than the model's (`reportedWindow.ts`). When it does not fit the model's budget, its longest texts
 * are cut in the middle, their start and end kept around a note of how much was left out, until it fits; every
 * other message goes exactly as it came.
 */
import type { IncomingMessage } from '../conversation/incomingMessage';
import { newMessageId } from '../ids';
import { shortenMiddle } from '../text/shorten';
import { blockText } from '../tokens/blockText';
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/counter';
import { textBlock, type Block } from '../types';
import type { Outgoing } from './outgoing';

/** A text is never cut below this many tokens: its start and end still say what it was. */
const MIN_KEPT_TOKENS = 200;
/** Kept below the budget when a text is cut by its share of characters: tokens are not spread evenly. */
const CUT_MARGIN = 0.95;

export interface AsSent<Raw> {
  readonly message: IncomingMessage<Raw>;
  /** Sent as instructions (the request's leading system messages). */
  readonly system: boolean;
}

/** The messages as they will be sent: as they came while they fit `budget`, their longest texts cut when not. */
export async function fitAsSent<Raw>(
  messages: readonly AsSent<Raw>[],
  budget: number,
  countText: (text: string) => Promise<number>,
  now: number,
): Promise<Outgoing<Raw>[]> {
  const tokens = await Promise.all(messages.map((m) => Promise.all(m.message.blocks.map((b) => countText(blockText(b))))));
  let over = tokens.flat().reduce((a, b) => a + b, messages.length * MESSAGE_OVERHEAD_TOKENS) - budget;
  const cut = new Map<number, Block[]>();
  const longest = tokens
    .flatMap((blocks, m) => blocks.map((t, b) => ({ m, b, t })))
    .filter(({ m, b }) => messages[m].message.blocks[b].type === 'text')
    .sort((x, y) => y.t - x.t);
  for (const { m, b, t } of longest) {
    if (over <= 0 || t <= MIN_KEPT_TOKENS) break;
    const block = messages[m].message.blocks[b];
    if (block.type !== 'text') continue;
    const keep = Math.max(MIN_KEPT_TOKENS, t - over);
    const text = shortenMiddle(block.text, Math.floor((block.text.length * keep * CUT_MARGIN) / t));
    over -= t - (await countText(text));
    const blocks = cut.get(m) ?? [...messages[m].message.blocks];
    blocks[b] = block.injected === true ? { ...textBlock(text), injected: true } : textBlock(text);
    cut.set(m, blocks);
  }
  return messages.map(({ message, system }, i) => {
    const blocks = cut.get(i);
    if (!blocks) return { kind: 'caller', raw: message.raw, system };
    return { kind: 'engine', message: { id: newMessageId('c', now), role: message.role, blocks } };
  });
}
