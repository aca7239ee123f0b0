/**
 * A Gemini history as the API holds it: a list of `Content` objects (`{role: 'user' | 'model', parts}`), the shape
 * Gemini CLI saves with `/chat save` (a bare list), keeps in its restore checkpoints (`history`, `clientHistory`) and
 * the Gemini API takes as `contents`. A user `Content` made of `functionResponse` parts answers the model's calls;
 * the rest is read as Qwen Code's log is, whose records carry the same `Content`.
 */
import type { ImportSink } from './importSink';
import { arrayField, isJsonObject, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';
import { importQwenLog } from './qwenLog';

/** Fields of a document that hold a Gemini history, in the order they are looked for. */
const HISTORY_FIELDS = ['history', 'clientHistory', 'contents'] as const;

/** True for a Gemini `Content`: a role of the API's and a list of parts. */
function isGeminiContent(entry: unknown): entry is JsonObject {
  return isJsonObject(entry) && (entry.role === 'user' || entry.role === 'model') && Array.isArray(entry.parts);
}

/** The Gemini history `value` is or holds (every entry a `Content`, at least one from the model), or undefined. */
export function geminiContentList(value: unknown): readonly JsonObject[] | undefined {
  const isHistory = (list: readonly unknown[] | undefined) =>
    list !== undefined && list.length > 0 && list.every(isGeminiContent) && list.some((c) => isJsonObject(c) && c.role === 'model');
  if (Array.isArray(value)) return isHistory(value) ? (value as JsonObject[]) : undefined;
  if (!isJsonObject(value)) return undefined;
  for (const field of HISTORY_FIELDS) {
    const list = arrayField(value, field);
    if (isHistory(list)) return list as JsonObject[];
  }
  return undefined;
}

/** Adds the history's messages to one session, each `Content` a record in its order. */
export function importGeminiContents(contents: readonly JsonObject[], sink: ImportSink): void {
  const records: SourceRecord[] = contents.map((content, index) => ({
    value: { type: recordType(content), uuid: `content-${index + 1}`, message: content },
  }));
  importQwenLog(records, sink);
}

function recordType(content: JsonObject): 'user' | 'assistant' | 'tool_result' {
  if (content.role === 'model') return 'assistant';
  const parts = arrayField(content, 'parts') ?? [];
  return parts.some((part) => isJsonObject(part) && isJsonObject(part.functionResponse)) ? 'tool_result' : 'user';
}
