/** The searchable text of an archived message: its text, its tool calls' inputs and its tool results. */
import type { Block, Message, ToolInput } from '../types';

/** What is indexed for one message. */
export interface MessageSearchText {
  readonly text: string;
  /** The first tool the message calls or answers, when it has one. */
  readonly toolName?: string;
}

/**
 * Renders a message for the index. Results whose call id is in `offloadedCallIds` are reduced to a
 * pointer: their full content is indexed once, as the offloaded file with line numbers.
 */
export function messageSearchText(message: Message, offloadedCallIds: ReadonlySet<string>): MessageSearchText {
  const parts = message.blocks.map((block) => blockText(block, offloadedCallIds));
  const toolName = message.blocks.map(toolNameOf).find((name) => name !== undefined);
  return toolName === undefined ? { text: parts.join('\n') } : { text: parts.join('\n'), toolName };
}

function blockText(block: Block, offloadedCallIds: ReadonlySet<string>): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'toolCall':
      return `${block.name}\n${inputText(block.input)}`;
    case 'toolResult':
      return offloadedCallIds.has(block.callId)
        ? `[${block.toolName ?? 'tool'} result ${block.callId} is indexed as its offloaded file]`
        : block.content;
  }
}

/**
 * Top-level string values are written as they are, not JSON-escaped: a written file's content keeps
 * its lines, and `\n` does not glue itself to the next word.
 */
function inputText(input: ToolInput): string {
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

function toolNameOf(block: Block): string | undefined {
  if (block.type === 'toolCall') return block.name;
  return block.type === 'toolResult' ? block.toolName : undefined;
}
