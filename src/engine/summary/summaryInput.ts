/**
 * The conversation as plain text for a summary prompt: one heading per message, the text, the
 * tool calls with their input, and each tool result with its status, long results cut in the
 * middle so one huge output cannot crowd out the rest of the history.
 */
import type { Block, Message } from '../types';
import { shortenMiddle } from '../text/shorten';

/**
 * Characters kept of each tool result.
 * @default 2000 — about 500 tokens: enough for a command's header, its errors and its last lines.
 * A summary keeps roughly a tenth of an old result (design §3.5), so more would mostly be cut anyway.
 */
export const DEFAULT_RESULT_CHARS = 2000;

/**
 * Characters kept of a tool call's input JSON.
 * @default 300 — the path, the command or the query; written file contents are already on disk.
 */
export const DEFAULT_TOOL_INPUT_CHARS = 300;

/** How much of long tool inputs and results a rendered transcript keeps. */
export interface SummaryRenderOptions {
  /** Characters kept of each tool result (head and tail). @default 2000 */
  readonly maxResultChars?: number;
  /** Characters kept of each tool call's input JSON. @default 300 */
  readonly maxToolInputChars?: number;
}

/** Tool names by call id, for results that do not carry their tool's name. */
export type ToolNames = ReadonlyMap<string, string>;

/** The tool name of every call in `messages`, by call id. */
export function toolNamesOf(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const msg of messages) {
    for (const block of msg.blocks) if (block.type === 'toolCall') names.set(block.id, block.name);
  }
  return names;
}

/** All messages, in order, separated by blank lines. */
export function renderMessagesForSummary(messages: readonly Message[], options: SummaryRenderOptions = {}): string {
  const names = toolNamesOf(messages);
  return messages.map((msg) => renderMessageForSummary(msg, names, options)).join('\n\n');
}

/** One message: a heading with its role and id, then its blocks. */
export function renderMessageForSummary(msg: Message, names: ToolNames, options: SummaryRenderOptions = {}): string {
  const lines = [`--- ${msg.role} (${msg.id}) ---`];
  for (const block of msg.blocks) lines.push(renderBlock(block, names, options));
  return lines.join('\n');
}

function renderBlock(block: Block, names: ToolNames, options: SummaryRenderOptions): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'toolCall':
      return `Tool call: ${renderToolCall(block.name, block.input, options.maxToolInputChars)}`;
    case 'toolResult': {
      const name = block.toolName ?? names.get(block.callId) ?? 'tool';
      const status = block.isError ? 'error' : 'ok';
      return `Tool result from ${name} (${status}):\n${shortenMiddle(block.content, options.maxResultChars ?? DEFAULT_RESULT_CHARS)}`;
    }
  }
}

/** `name(input JSON)`, the JSON cut in the middle when it is long. */
export function renderToolCall(name: string, input: unknown, maxInputChars = DEFAULT_TOOL_INPUT_CHARS): string {
  return `${name}(${shortenMiddle(JSON.stringify(input) ?? '', maxInputChars)})`;
}
