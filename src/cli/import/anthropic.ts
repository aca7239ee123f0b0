/**
 * Anthropic Messages-style transcripts: `{system?, messages:[…]}`, a bare message list, or a Cline
 * SDK session (`{version, sessionId, system_prompt, messages:[{id, role, content, ts}]}`).
 * Cline's `tool_result` content is a JSON string; it is kept as the result text exactly as stored.
 * Cline's `<environment_details>` (open tabs, the file tree, the time) in a user turn is injected;
 * a turn of Cline's classic history (tool results as user text) is read by `clineClassic.ts`.
 * Roo Code's condensed summary (`isSummary: true`) is the agent's compaction (`agentSummary.ts`).
 */
import { textBlock } from '../../engine/host/messages';
import { convertAssistantContent, convertUserContent } from './anthropicContent';
import { addFlaggedSummary } from './agentSummary';
import { type ClineCall, clineClassicUserBlocks, isClineClassicHistory } from './clineClassic';
import { withXmlToolCalls } from './clineXmlTools';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, stringField, type JsonObject } from './jsonShape';
import { renderContent } from './renderContent';
import { toEpochMs } from './timestamps';

/** Tags Cline wraps the context it appends to a user turn in. */
const ANTHROPIC_INJECTED_TAGS: readonly string[] = ['environment_details'];

/** Adds the system prompt (when there is one) and every message to one session of the sink. */
export function importAnthropic(document: unknown, sink: ImportSink, keepNativeCompaction = true): void {
  const root: JsonObject = isJsonObject(document) ? document : {};
  const messages = Array.isArray(document) ? document : arrayField(root, 'messages');
  if (messages === undefined) throw new TranscriptFormatError('expected Anthropic-style {messages:[...]} or a message list');
  sink.beginSession(stringField(root, 'sessionId') ?? stringField(root, 'id') ?? 'main');
  const system = renderContent(root.system_prompt ?? root.system).text;
  if (system !== '') sink.add('system-prompt', [{ role: 'system', blocks: [textBlock(system)] }]);
  const clineClassic = isClineClassicHistory(messages);
  // The calls of the last assistant turn a classic Cline user turn can still answer (native tool calling).
  let pending: ClineCall[] = [];
  messages.forEach((raw, index) => {
    sink.countRecord();
    const role = isJsonObject(raw) ? stringField(raw, 'role') : undefined;
    if (!isJsonObject(raw) || (role !== 'user' && role !== 'assistant' && role !== 'system')) {
      return sink.malformed(`messages[${index}] is not a user, assistant or system message`);
    }
    const sourceId = idField(raw, 'id') ?? `messages-${index}`;
    if (addFlaggedSummary(raw, sourceId, sink, keepNativeCompaction, toEpochMs(raw.ts ?? raw.timestamp))) return;
    if (role === 'system') {
      sink.add(sourceId, [{ role: 'system', blocks: [textBlock(renderContent(raw.content).text)] }]);
      return;
    }
    if (role === 'user' && clineClassic) {
      const turn = clineClassicUserBlocks(raw.content, pending);
      sink.countPlaceholders(turn.placeholders);
      const added = sink.add(sourceId, turn.parts, toEpochMs(raw.ts ?? raw.timestamp));
      if (added.length === 0) sink.skip('empty-message');
      return;
    }
    const converted =
      role === 'assistant' ? convertAssistantContent(raw.content) : convertUserContent(raw.content, ANTHROPIC_INJECTED_TAGS);
    sink.dropThinking(converted.thinkingBlocks);
    sink.countPlaceholders(converted.placeholders);
    if (converted.unknownTypes.length > 0) {
      sink.warn(`message ${sourceId}: unknown content block type(s) ${[...new Set(converted.unknownTypes)].join(', ')} kept as JSON text`);
    }
    // Cline's XML calls, which the next turn's results answer (see `clineXmlTools.ts`), where it called no tool natively.
    const xml = role === 'assistant' && clineClassic && !converted.parts.some((part) => part.blocks.some((b) => b.type === 'toolCall'));
    const parts = xml
      ? converted.parts.map((part, at) => ({ ...part, blocks: withXmlToolCalls(part.blocks, messages[index + 1], `${sourceId}:${at}`) }))
      : converted.parts;
    if (role === 'assistant') pending = parts.flatMap((part) => part.blocks.flatMap((b) => (b.type === 'toolCall' ? [b] : [])));
    if (sink.add(sourceId, parts, toEpochMs(raw.ts ?? raw.timestamp)).length === 0) sink.skip('empty-message');
  });
}
