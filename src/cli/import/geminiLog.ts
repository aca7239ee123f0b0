/**
 * Gemini CLI's newer session log (`chats/session-*.jsonl`): a metadata line (`sessionId`,
 * `projectHash`), then message records as the session wrote them. It is an upsert log: a message is
 * written again, whole, each time its tool calls, results or tokens change (the last copy wins, in
 * the place of the first); `{$rewindTo: id}` takes that message and every later one back out;
 * `{$set: {...}}` updates the metadata, and a `messages` list in it replaces the whole history. The
 * folded messages are the session JSON's, read by `geminiSession.ts`.
 */
import { importGeminiSession } from './geminiSession';
import type { ImportSink } from './importSink';
import { isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';

/** True for a record of Gemini CLI's session log: its metadata line or one of its update records. */
export function isGeminiLogRecord(record: JsonObject): boolean {
  if (typeof record.$rewindTo === 'string' || isJsonObject(record.$set)) return true;
  return typeof record.sessionId === 'string' && typeof record.projectHash === 'string' && !('type' in record);
}

/** Folds the log into the session it describes and imports that. */
export function importGeminiLog(records: readonly SourceRecord[], sink: ImportSink): void {
  const messages = new Map<string, JsonObject>();
  let sessionId: string | undefined;
  let untitled = 0;
  records.forEach((record) => {
    const value = record.value;
    if (!isJsonObject(value)) return;
    if (typeof value.$rewindTo === 'string') return rewind(messages, value.$rewindTo, sink);
    const update = objectField(value, '$set') ?? (stringField(value, 'type') === undefined ? value : undefined);
    if (update !== undefined) {
      sink.countRecord();
      sink.skip('session-metadata');
      sessionId = stringField(update, 'sessionId') ?? sessionId;
      if (Array.isArray(update.messages)) {
        for (let n = 0; n < messages.size; n++) countDropped(sink, 'replaced-message');
        messages.clear();
        update.messages.filter(isJsonObject).forEach((message) => messages.set(keyOf(message, ++untitled), message));
      }
      return;
    }
    const key = keyOf(value, ++untitled);
    // The same message written again as it grew: the later copy replaces the earlier one.
    if (messages.has(key)) countDropped(sink, 'superseded-copy');
    messages.set(key, value);
  });
  importGeminiSession({ sessionId: sessionId ?? 'main', messages: [...messages.values()] }, sink);
}

/** `$rewindTo` takes the named message and all after it out of the history; an unknown id empties it. */
function rewind(messages: Map<string, JsonObject>, target: string, sink: ImportSink): void {
  sink.countRecord();
  const keys = [...messages.keys()];
  const from = keys.indexOf(target);
  for (const key of from < 0 ? keys : keys.slice(from)) {
    messages.delete(key);
    countDropped(sink, 'rewound-message');
  }
  sink.skip('rewind');
}

/** A message record the history no longer holds: read, and left out. */
function countDropped(sink: ImportSink, kind: string): void {
  sink.countRecord();
  sink.skip(kind);
}

function keyOf(message: JsonObject, fallback: number): string {
  return stringField(message, 'id') ?? `untitled-${fallback}`;
}
