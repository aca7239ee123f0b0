/**
 * OpenAI-style transcripts: `{messages:[…]}` or a bare list of chat messages. Cline's classic
 * history (text blocks only, so it reads as this format) has its user turns read as Cline frames them.
 * A message an agent flags as its own condensed summary (`isSummary: true`) is its compaction (`agentSummary.ts`).
 */
import { addFlaggedSummary } from './agentSummary';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, isJsonObject, stringField } from './jsonShape';
import { isClineClassicHistory } from './clineClassic';
import { OpenAiMessageReader, type ReadMessage } from './openAiMessageReader';
import { toEpochMs } from './timestamps';

/** Adds every message of the list to one session of the sink. */
export function importOpenAi(document: unknown, sink: ImportSink, keepNativeCompaction = true): void {
  const messages = Array.isArray(document) ? document : isJsonObject(document) ? arrayField(document, 'messages') : undefined;
  if (messages === undefined) throw new TranscriptFormatError('expected an OpenAI-style {messages:[...]} object or a message list');
  const reader = new OpenAiMessageReader(isClineClassicHistory(messages));
  messages.forEach((raw, index) => {
    sink.countRecord();
    if (!isJsonObject(raw) || typeof raw.role !== 'string') return sink.malformed(`messages[${index}] is not a chat message`);
    const sourceId = stringField(raw, 'id') ?? `messages-${index}`;
    if (addFlaggedSummary(raw, sourceId, sink, keepNativeCompaction, toEpochMs(raw.timestamp ?? raw.created_at))) return;
    const read = reader.read(raw, sourceId, messages[index + 1]);
    addRead(read, sourceId, sink, toEpochMs(raw.timestamp ?? raw.created_at));
  });
}

/** Adds what one message became, warning about anything kept in a fallback form. */
export function addRead(read: ReadMessage, sourceId: string, sink: ImportSink, at?: number): void {
  sink.dropThinking(read.thinkingBlocks);
  sink.countPlaceholders(read.placeholders);
  if (read.unknownRole !== undefined) sink.warn(`message ${sourceId}: unknown role '${read.unknownRole}' kept as injected user text`);
  if (read.unknownTypes.length > 0) {
    sink.warn(`message ${sourceId}: unknown content part type(s) ${[...new Set(read.unknownTypes)].join(', ')} kept as JSON text`);
  }
  if (sink.add(sourceId, read.parts, at).length === 0) sink.skip('empty-message');
}
