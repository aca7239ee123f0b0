/**
 * Gemini CLI session JSON (`~/.gemini/tmp/<project>/chats/session-*.json`): `{sessionId,
 * projectHash, messages[]}` with `user` and `gemini` messages. A `gemini` message carries its tool
 * calls, and each call carries its own result (`functionResponse`), so a message becomes the
 * assistant's text and calls followed by one tool message per result. `thoughts` are thinking
 * summaries (not model context here); `info`, `error` and `warning` messages are the UI's notices.
 */
import { type Block, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { dataText } from './dataText';
import { geminiParts } from './geminiParts';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { userTurnBlocks } from './geminiReferencedFiles';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** Message types Gemini CLI records for its own notices; the model never saw them. */
const NOTICE_TYPES = new Set(['info', 'error', 'warning']);

/** Adds the session's messages to one session of the sink. */
export function importGeminiSession(document: unknown, sink: ImportSink): void {
  const messages = isJsonObject(document) ? arrayField(document, 'messages') : undefined;
  if (!isJsonObject(document) || messages === undefined) {
    throw new TranscriptFormatError('expected a Gemini CLI session with a messages list');
  }
  sink.beginSession(stringField(document, 'sessionId') ?? 'main');
  messages.forEach((raw, index) => {
    sink.countRecord();
    if (!isJsonObject(raw)) return sink.malformed(`messages[${index}] is not a message`);
    const type = stringField(raw, 'type') ?? '';
    const id = stringField(raw, 'id') ?? `messages-${index}`;
    const at = toEpochMs(raw.timestamp);
    if (type === 'user') return addUser(raw, id, at, sink);
    if (type === 'gemini') return addGemini(raw, id, at, sink);
    if (NOTICE_TYPES.has(type)) return sink.skip(`${type}-notice`);
    sink.skip(type || 'untyped', {
      reason: `messages[${index}]: message type '${type || 'untyped'}' is not known to be model context; skipped`,
    });
  });
}

/** The user's turn; file contents Gemini CLI read in for an @-reference are injected. */
function addUser(raw: JsonObject, id: string, at: number | undefined, sink: ImportSink): void {
  const parts = geminiParts(raw.content);
  account(parts, id, sink);
  if (sink.add(id, [{ role: 'user', blocks: userTurnBlocks(parts.texts) }], at).length === 0) sink.skip('empty-message');
}

function addGemini(raw: JsonObject, id: string, at: number | undefined, sink: ImportSink): void {
  sink.dropThinking((arrayField(raw, 'thoughts') ?? []).length);
  const parts = geminiParts(raw.content);
  account(parts, id, sink);
  const calls = (arrayField(raw, 'toolCalls') ?? []).filter(isJsonObject);
  const callBlocks = calls.map((call, n) =>
    toolCallBlock(idField(call, 'id') ?? `${id}:call-${n + 1}`, stringField(call, 'name') ?? 'unknown', toToolInput(call.args)),
  );
  const blocks: Block[] = [...parts.texts.map((t) => t.block), ...callBlocks];
  if (sink.add(id, [{ role: 'assistant', blocks }], at).length === 0) sink.skip('empty-message');
  calls.forEach((call, n) => {
    // A call cancelled or refused before it ran has no result: it stays unanswered.
    if (call.result === undefined || call.result === null) return;
    const result = callResult(call.result);
    account(result.rest, `${id} call ${callBlocks[n].id}`, sink);
    const content = [result.text, ...result.rest.texts.map((t) => t.block.text)].filter((t) => t !== '').join('\n');
    sink.add(
      `${callBlocks[n].id}:result`,
      [{ role: 'tool', blocks: [toolResultBlock(callBlocks[n].id, content, result.isError || call.status === 'error')] }],
      toEpochMs(call.timestamp) ?? at,
    );
  });
}

/** The `functionResponse` output (or error) the model was given, and any other parts beside it. */
function callResult(result: unknown): { text: string; isError: boolean; rest: ReturnType<typeof geminiParts> } {
  const list = Array.isArray(result) ? result : [result];
  const responses = list.filter((part) => isJsonObject(part) && isJsonObject(part.functionResponse)) as JsonObject[];
  const rest = geminiParts(list.filter((part) => !(isJsonObject(part) && isJsonObject(part.functionResponse))));
  let isError = false;
  const texts = responses.map((part) => {
    const response = objectField(objectField(part, 'functionResponse') ?? {}, 'response') ?? {};
    const output = response.output ?? response.content;
    if (output === undefined && response.error !== undefined) isError = true;
    const value = output ?? response.error ?? response;
    return dataText(value);
  });
  return { text: texts.join('\n'), isError, rest };
}

function account(parts: ReturnType<typeof geminiParts>, where: string, sink: ImportSink): void {
  sink.countPlaceholders(parts.placeholders);
  if (parts.unknownKinds.length > 0) {
    sink.warn(`${where}: part(s) of unknown kind ${[...new Set(parts.unknownKinds)].join(', ')} kept as JSON text`);
  }
}
