/**
 * Copilot Chat's session transcript (0.67, `SessionTranscriptService`) as ctx messages. The transcript is JSON Lines,
 * one entry per line, `{type, data, id, timestamp, parentId}`, appended as the agent works:
 * - `session.start` (`data.sessionId`), `assistant.turn_start` / `assistant.turn_end`: no content;
 * - `user.message` (`data.content`: the user's request);
 * - `assistant.message` (`data.content`: the model's text; `data.toolRequests`: `{toolCallId, name, arguments}`);
 * - `tool.execution_start` (`data.toolName`, `data.arguments`) and `tool.execution_complete` (`data.toolCallId`,
 *   `data.success`, `data.result.content` when Copilot kept it; 0.67 keeps none).
 * A result the transcript does not hold becomes a short note, so every call keeps its answer.
 */
import { type Block, message, type Message, textBlock, toolCallBlock, toolResultBlock, type ToolInput } from '../engine/host/messages';

/** What a read of the transcript found. */
export interface TranscriptRead {
  /** The messages, each with the 0-based line it came from. */
  readonly messages: { readonly line: number; readonly message: Message }[];
  /** Complete lines (each ended by a newline): a line still being written is left for the next read. */
  readonly lines: number;
  /** Lines that were not JSON or not an entry. */
  readonly unreadable: number;
  /** Calls requested and not yet answered, by id, with their tool's name: a later read names their results by them. */
  readonly openCalls: Readonly<Record<string, string>>;
}

/** Where a read starts when the lines before it were read already. */
export interface ReadFrom {
  /** The number of the first line of the text (0-based, in the whole transcript). */
  readonly line: number;
  /** The calls the earlier lines left unanswered (`TranscriptRead.openCalls`). */
  readonly openCalls: Readonly<Record<string, string>>;
}

/** What stands for a tool result Copilot's transcript does not keep. */
export const RESULT_NOT_KEPT = "(Copilot's transcript keeps no tool results: only that this call succeeded.)";
const RESULT_FAILED = "(Copilot's transcript keeps no tool results: this call failed.)";

type Entry = { readonly type: string; readonly id: string; readonly at?: number; readonly data: Record<string, unknown> };

/** The messages of the transcript's complete lines, in order; `from` when `text` continues what was read before. */
export function readCopilotTranscript(text: string, from: ReadFrom = { line: 0, openCalls: {} }): TranscriptRead {
  const all = text.split('\n');
  // The last piece is empty after a final newline, or a line still being written: it is read next time.
  const complete = all.length - 1;
  const messages: { line: number; message: Message }[] = [];
  // A result names its tool from the call read before it (in this text or an earlier one).
  const toolNames = new Map<string, string>(Object.entries(from.openCalls));
  let unreadable = 0;
  for (let i = 0; i < complete; i++) {
    const line = all[i].trim();
    if (line === '') continue;
    const entry = parseEntry(line);
    if (!entry) {
      unreadable++;
      continue;
    }
    const m = toMessage(entry, toolNames);
    if (m) messages.push({ line: from.line + i, message: m });
  }
  return { messages, lines: from.line + complete, unreadable, openCalls: Object.fromEntries(toolNames) };
}

function parseEntry(line: string): Entry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.type !== 'string' || typeof value.id !== 'string' || !isObject(value.data)) return undefined;
  const at = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : NaN;
  return { type: value.type, id: value.id, data: value.data, ...(Number.isFinite(at) ? { at } : {}) };
}

function toMessage(entry: Entry, toolNames: Map<string, string>): Message | undefined {
  const id = `copilot-${entry.id}`;
  const { data } = entry;
  switch (entry.type) {
    case 'user.message':
      return typeof data.content === 'string' && data.content !== '' ? message(id, 'user', [textBlock(data.content)], entry.at) : undefined;
    case 'assistant.message': {
      const blocks: Block[] = typeof data.content === 'string' && data.content !== '' ? [textBlock(data.content)] : [];
      for (const request of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
        if (!isObject(request) || typeof request.toolCallId !== 'string' || typeof request.name !== 'string') continue;
        toolNames.set(request.toolCallId, request.name);
        blocks.push(toolCallBlock(request.toolCallId, request.name, toolInput(request.arguments)));
      }
      return blocks.length > 0 ? message(id, 'assistant', blocks, entry.at) : undefined;
    }
    case 'tool.execution_complete': {
      if (typeof data.toolCallId !== 'string') return undefined;
      const failed = data.success === false;
      const kept = isObject(data.result) ? resultText(data.result.content) : undefined;
      const content = kept ?? (failed ? RESULT_FAILED : RESULT_NOT_KEPT);
      const toolName = toolNames.get(data.toolCallId);
      toolNames.delete(data.toolCallId);
      return message(id, 'tool', [toolResultBlock(data.toolCallId, content, failed, toolName)], entry.at);
    }
    default:
      return undefined;
  }
}

/** Copilot logs a call's arguments as the model wrote them: a JSON text, or already an object. */
function toolInput(args: unknown): ToolInput {
  if (isObject(args)) return args;
  if (typeof args === 'string') {
    try {
      const parsed: unknown = JSON.parse(args);
      if (isObject(parsed)) return parsed;
    } catch {
      // Not JSON: kept as it was written.
    }
    return args === '' ? {} : { arguments: args };
  }
  return {};
}

/** A kept result: a text, or a list of parts with text in them. */
function resultText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part) =>
    isObject(part) && typeof part.text === 'string' ? [part.text] : typeof part === 'string' ? [part] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
