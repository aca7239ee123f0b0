/**
 * Old results compressed in place (design §3.5): at high usage, old tool results above a minimum size are compressed in
 * place to a share of their size, with the call as context. The message structure is unchanged
 * (every call keeps its result) and the archive keeps the originals.
 */
import { NEVER_CANCELLED } from '../cancellation';
import type { Summarizer, SummaryGuide } from '../summary/summarizer';
import type { CountText } from '../model/countText';
import type { Message, ToolCallBlock, ToolResultBlock } from '../types';

/** Compressed results start with this, so they are never compressed twice. */
export const COMPRESSED_PREFIX = '[ctx compressed';

/** A result smaller than this is never worth a summary, whatever the share. */
const MIN_TARGET_TOKENS = 100;

export interface CompressResultsInputs {
  /** The latest messages are left alone. */
  readonly keepLast: number;
  /** Only results above this many tokens are compressed. */
  readonly minTokens: number;
  /** Share of its tokens a compressed result keeps. */
  readonly share: number;
  readonly countText: CountText;
  readonly summarizer: Summarizer;
  readonly guide: SummaryGuide;
  readonly references: { readonly archive: string; readonly offloaded: string };
}

export interface CompressedResult {
  readonly callId: string;
  readonly toolName: string;
  readonly before: number;
  readonly after: number;
}

export async function compressOldResults(
  active: readonly Message[],
  i: CompressResultsInputs,
): Promise<{ messages: Message[]; compressed: CompressedResult[] }> {
  const calls = new Map<string, ToolCallBlock>();
  for (const m of active) for (const b of m.blocks) if (b.type === 'toolCall') calls.set(b.id, b);
  const end = Math.max(0, active.length - i.keepLast);
  const compressed: CompressedResult[] = [];
  const messages: Message[] = [];
  for (const [index, m] of active.entries()) {
    if (index >= end || !m.blocks.some((b) => b.type === 'toolResult')) {
      messages.push(m);
      continue;
    }
    const blocks = [];
    for (const b of m.blocks) blocks.push(b.type === 'toolResult' ? await compressResult(b, calls.get(b.callId), i, compressed) : b);
    messages.push(blocks.every((b, k) => b === m.blocks[k]) ? m : { ...m, blocks });
  }
  return { messages, compressed };
}

async function compressResult(
  block: ToolResultBlock,
  call: ToolCallBlock | undefined,
  i: CompressResultsInputs,
  compressed: CompressedResult[],
): Promise<ToolResultBlock> {
  // Four characters a token at most: shorter content cannot be above the minimum, so it is not counted.
  if (block.content.startsWith(COMPRESSED_PREFIX) || block.content.length < i.minTokens) return block;
  const before = await i.countText(block.content);
  if (before <= i.minTokens) return block;
  const toolName = block.toolName ?? call?.name ?? 'tool';
  const text = await i.summarizer.summarize(
    {
      kind: 'toolResult',
      messages: [
        { id: `${block.callId}-call`, role: 'assistant', blocks: call ? [call] : [] },
        { id: `${block.callId}-result`, role: 'tool', blocks: [block] },
      ],
      guide: i.guide,
      targetTokens: Math.max(MIN_TARGET_TOKENS, Math.round(before * i.share)),
      references: { ...i.references, firstMessageId: block.callId, lastMessageId: block.callId },
    },
    NEVER_CANCELLED,
  );
  const content = text.startsWith(COMPRESSED_PREFIX) ? text : `${COMPRESSED_PREFIX}${text}`;
  const after = await i.countText(content);
  if (after >= before) return block;
  compressed.push({ callId: block.callId, toolName, before, after });
  return { ...block, content };
}
