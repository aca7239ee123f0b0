/**
 * The messages of a mini-swe-agent 1.1 trajectory that carry structured tool calls: Chat
 * Completions messages (`tool_calls`, `tool` results), Responses API items (a `response` object's
 * `output`, `function_call_output`, typed `message` items) and the final `exit` record.
 */
import { type Block, injectedTextBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import type { ImportSink } from './importSink';
import { injectedPart } from './messageDraft';
import { arrayField, idField, isJsonObject, stringField, type JsonObject } from './jsonShape';
import { addRead } from './openAi';
import type { OpenAiMessageReader } from './openAiMessageReader';
import { renderContent } from './renderContent';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** What reading structured messages needs across a trajectory. */
export interface StructuredReader {
  readonly reader: OpenAiMessageReader;
  readonly sink: ImportSink;
}

/**
 * Adds the message when it is one of the structured kinds and returns true; returns false for a
 * plain chat message, which the text-action reading handles. `taskSeen` tells a user message after
 * the task (written by mini-swe-agent: a format error, a timeout) from the task itself.
 */
export function readStructuredMessage(raw: JsonObject, sourceId: string, { reader, sink }: StructuredReader, taskSeen: boolean): boolean {
  const at = toEpochMs(raw.timestamp ?? (isJsonObject(raw.extra) ? raw.extra.timestamp : undefined));
  if (raw.role === 'exit') {
    // How the run ended (exit status, the submission again); the model never saw it.
    sink.skip('exit');
    return true;
  }
  if (raw.object === 'response') {
    addResponse(raw, sourceId, sink, at);
    return true;
  }
  if (raw.type === 'function_call_output') {
    const callId = idField(raw, 'call_id') ?? '';
    sink.add(sourceId, [{ role: 'tool', blocks: [toolResultBlock(callId, renderContent(raw.output).text)] }], at);
    return true;
  }
  if (raw.role !== 'tool' && (arrayField(raw, 'tool_calls') ?? []).length === 0) return false;
  const read = reader.read(raw, sourceId);
  addRead(raw.role === 'user' && taskSeen ? { ...read, parts: read.parts.map(injectedPart) } : read, sourceId, sink, at);
  return true;
}

/** A Responses API reply: its text, reasoning (dropped, counted) and function calls in one assistant message. */
function addResponse(raw: JsonObject, sourceId: string, sink: ImportSink, at: number | undefined): void {
  const blocks: Block[] = [];
  for (const item of (arrayField(raw, 'output') ?? []).filter(isJsonObject)) {
    const type = stringField(item, 'type');
    if (type === 'reasoning') sink.dropThinking(1);
    else if (type === 'function_call') {
      blocks.push(
        toolCallBlock(
          idField(item, 'call_id') ?? idField(item, 'id') ?? `${sourceId}:call`,
          stringField(item, 'name') ?? 'unknown',
          toToolInput(item.arguments),
        ),
      );
    } else if (type === 'message') {
      blocks.push(...renderContent(item.content).blocks);
    } else {
      sink.warn(`${sourceId}: response output item of type '${type ?? 'untyped'}' kept as JSON text`);
      blocks.push(injectedTextBlock(JSON.stringify(item)));
    }
  }
  if (sink.add(sourceId, [{ role: 'assistant', blocks }], at).length === 0) sink.skip('empty-message');
}
