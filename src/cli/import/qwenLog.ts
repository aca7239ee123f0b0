/**
 * Qwen Code's session log (`~/.qwen/projects/<project>/chats/<session>.jsonl`, Gemini CLI's fork):
 * one record per line, `type` `user`, `assistant`, `tool_result` or `system`, each carrying a
 * Gemini `Content` (`message: {role, parts}`). The assistant's `functionCall` parts are its calls;
 * a `tool_result` record answers them with `functionResponse` parts, by id when it has one, else
 * the oldest unanswered call of that name; its `toolCallResult.status` says whether the call failed.
 * A `system` record is the CLI's own (a compression point, a title), not model context.
 */
import { type Block, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { dataText } from './dataText';
import { userTurnBlocks } from './geminiReferencedFiles';
import { geminiParts } from './geminiParts';
import type { ImportSink } from './importSink';
import { injectedPart } from './messageDraft';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** True for a record of Qwen Code's log: a user or assistant record whose message is a Gemini `Content`. */
export function isQwenLogRecord(record: JsonObject): boolean {
  const message = objectField(record, 'message');
  return (record.type === 'user' || record.type === 'assistant') && message !== undefined && Array.isArray(message.parts);
}

/** Adds the log's records, in file order, to one session. */
export function importQwenLog(records: readonly SourceRecord[], sink: ImportSink): void {
  const first = records.map((r) => r.value).find(isJsonObject);
  sink.beginSession((first && stringField(first, 'sessionId')) ?? 'main');
  const pending: PendingCall[] = [];
  records.forEach((record, index) => {
    sink.countRecord();
    const raw = record.value;
    if (!isJsonObject(raw)) return sink.malformed(`record ${index + 1} is not an object`, record.line);
    const type = stringField(raw, 'type') ?? '';
    const current: ReadRecord = {
      id: stringField(raw, 'uuid') ?? `record-${index + 1}`,
      at: toEpochMs(raw.timestamp),
      line: record.line,
      parts: arrayField(objectField(raw, 'message') ?? {}, 'parts') ?? [],
      pending,
      sink,
    };
    if (type === 'user') return addText(current);
    if (type === 'assistant') return addAssistant(current);
    if (type === 'tool_result') return addResults(current, objectField(raw, 'toolCallResult') ?? {});
    if (type === 'system') return sink.skip(`system:${stringField(raw, 'subtype') ?? 'untyped'}`);
    sink.skip(type || 'untyped', {
      reason: `record type '${type || 'untyped'}' is not known to be model context; skipped`,
      line: record.line,
    });
  });
}

/** A call of the model's still waiting for its result. */
interface PendingCall {
  readonly id: string;
  readonly name: string;
}

/** One record being read: where it stands, its Gemini parts, the calls still unanswered, and the sink. */
interface ReadRecord {
  readonly id: string;
  readonly at: number | undefined;
  readonly line?: number;
  readonly parts: readonly unknown[];
  readonly pending: PendingCall[];
  readonly sink: ImportSink;
}

function addText({ id, at, line, parts, sink }: ReadRecord): void {
  const content = read(parts, id, sink);
  // Qwen Code appends @-referenced files as Gemini CLI does: their content is injected.
  if (sink.add(id, [{ role: 'user', blocks: userTurnBlocks(content.texts) }], at, line).length === 0) sink.skip('empty-message');
}

function addAssistant({ id, at, line, parts, pending, sink }: ReadRecord): void {
  const thoughts = parts.filter((part) => isJsonObject(part) && part.thought === true).length;
  sink.dropThinking(thoughts);
  const calls = parts.flatMap((part) => (isJsonObject(part) && isJsonObject(part.functionCall) ? [part.functionCall] : []));
  const content = read(
    parts.filter((part) => !(isJsonObject(part) && isJsonObject(part.functionCall))),
    id,
    sink,
  );
  const blocks: Block[] = content.texts.map((t) => t.block);
  calls.forEach((call, n) => {
    const callId = idField(call, 'id') ?? `${id}:call-${n + 1}`;
    const name = stringField(call, 'name') ?? 'unknown';
    pending.push({ id: callId, name });
    blocks.push(toolCallBlock(callId, name, toToolInput(call.args)));
  });
  if (sink.add(id, [{ role: 'assistant', blocks }], at, line).length === 0) sink.skip('empty-message');
}

function addResults({ id, at, line, parts, pending, sink }: ReadRecord, status: JsonObject): void {
  const responses = parts.flatMap((part) => (isJsonObject(part) && isJsonObject(part.functionResponse) ? [part.functionResponse] : []));
  const rest = read(
    parts.filter((part) => !(isJsonObject(part) && isJsonObject(part.functionResponse))),
    id,
    sink,
  );
  const blocks: Block[] = responses.map((response) => {
    const name = stringField(response, 'name') ?? '';
    const wanted = idField(response, 'id') ?? stringField(status, 'callId');
    const index = pending.findIndex((call) => (wanted !== undefined ? call.id === wanted : call.name === name));
    const callId = index >= 0 ? pending.splice(index, 1)[0].id : (wanted ?? `${id}:result`);
    const body = objectField(response, 'response') ?? {};
    const output = body.output ?? body.content;
    const failed = status.status === 'error' || (output === undefined && body.error !== undefined);
    return toolResultBlock(callId, dataText(output ?? body.error ?? body), failed);
  });
  // Other parts beside the responses reached the model with them, written by the tool, not the user.
  const beside = rest.texts.length === 0 ? [] : [injectedPart({ role: 'user', blocks: rest.texts.map((t) => t.block) })];
  const added = sink.add(id, [...(blocks.length === 0 ? [] : [{ role: 'tool' as const, blocks }]), ...beside], at, line);
  if (added.length === 0) sink.skip('empty-message');
}

function read(parts: readonly unknown[], where: string, sink: ImportSink): ReturnType<typeof geminiParts> {
  const content = geminiParts(parts);
  sink.countPlaceholders(content.placeholders);
  if (content.unknownKinds.length > 0) {
    sink.warn(`${where}: part(s) of unknown kind ${[...new Set(content.unknownKinds)].join(', ')} kept as JSON text`);
  }
  return content;
}
