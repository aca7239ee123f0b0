/**
 * The watermark (design §3.4): a checkpoint request names a tool; the watermark moves to that tool's
 * first call after the current watermark. From then on every request drops the tool-call and
 * tool-result blocks before the watermark, keeps all text, drops messages left empty, and never
 * separates a call from its result. The watermark only advances.
 */
import type { Block, Message } from '../types';

/** Index of the message holding the given tool call, or -1. */
export function indexOfCall(messages: readonly Message[], callId: string): number {
  return messages.findIndex((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === callId));
}

/**
 * The id of the first call to `toolName` after the current watermark (from the start when there
 * is none), or undefined when there is no such call.
 */
export function findCheckpointCall(messages: readonly Message[], toolName: string, watermark: string | undefined): string | undefined {
  let start = 0;
  if (watermark) {
    const at = indexOfCall(messages, watermark);
    if (at === -1) return undefined;
    // The watermark's own message may hold later calls of the same tool: look past the watermark block.
    const own = messages[at].blocks;
    const after = own.slice(own.findIndex((b) => b.type === 'toolCall' && b.id === watermark) + 1);
    const sameMessage = after.find((b) => b.type === 'toolCall' && b.name === toolName);
    if (sameMessage?.type === 'toolCall') return sameMessage.id;
    start = at + 1;
  }
  for (let i = start; i < messages.length; i++) {
    for (const b of messages[i].blocks) if (b.type === 'toolCall' && b.name === toolName) return b.id;
  }
  return undefined;
}

export interface WatermarkResult {
  readonly messages: Message[];
  /** Tool blocks removed (calls and results). */
  readonly removedBlocks: number;
  /** Whole messages dropped because nothing was left in them. */
  readonly removedMessages: number;
  /** False when the watermark call is not in the messages: nothing was changed. */
  readonly found: boolean;
}

/**
 * Drops tool blocks before the watermark. A pair goes when its call is before the watermark's
 * message (wherever its result is); a result before the watermark whose call is at or after it
 * stays, so a call is never separated from its result.
 */
export function applyWatermark(messages: readonly Message[], watermark: string): WatermarkResult {
  const at = indexOfCall(messages, watermark);
  if (at === -1) return { messages: [...messages], removedBlocks: 0, removedMessages: 0, found: false };

  const droppedCalls = new Set<string>();
  for (let i = 0; i < at; i++) for (const b of messages[i].blocks) if (b.type === 'toolCall') droppedCalls.add(b.id);
  const keptCalls = new Set<string>();
  for (let i = at; i < messages.length; i++) for (const b of messages[i].blocks) if (b.type === 'toolCall') keptCalls.add(b.id);

  const drop = (b: Block, beforeWatermark: boolean): boolean => {
    if (b.type === 'toolCall') return droppedCalls.has(b.id);
    if (b.type === 'toolResult') return droppedCalls.has(b.callId) || (beforeWatermark && !keptCalls.has(b.callId));
    return false;
  };

  const out: Message[] = [];
  let removedBlocks = 0;
  let removedMessages = 0;
  messages.forEach((m, i) => {
    const kept = m.blocks.filter((b) => !drop(b, i < at));
    removedBlocks += m.blocks.length - kept.length;
    if (kept.length === m.blocks.length) out.push(m);
    else if (kept.length > 0) out.push({ ...m, blocks: kept });
    else removedMessages++;
  });
  return { messages: out, removedBlocks, removedMessages, found: true };
}
