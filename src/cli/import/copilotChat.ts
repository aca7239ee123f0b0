/**
 * A VS Code Copilot Chat session as "Chat: Export Chat…" saves it: `{requesterUsername,
 * responderUsername, requests[]}`, one request per user turn. What the model saw is in each
 * request's `result.metadata`: the rendered user message (and, once, the global context), one
 * `toolCallRounds` entry per model call and the tool results keyed by call id. `response[]` is the
 * chat view's copy of the same rounds and results; it is read for a request that has no rounds, and
 * for which calls failed (the metadata does not say).
 */
import { type Block, injectedTextBlock, splitAuthoredTag, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { copilotResultText } from './copilotToolResult';
import { renderRawParts } from './copilotRawParts';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** The tag Copilot wraps the user's own words in; everything around it in the rendered turn is context it added. */
const USER_REQUEST_TAG = 'userRequest';

/** How a kept Copilot history summary starts, so no reader mistakes it for the user's words. */
export const COPILOT_SUMMARY_MARKER = '[Copilot conversation summary]';

/** Adds every request of the export to one session. */
export function importCopilotChat(document: unknown, sink: ImportSink, keepNativeCompaction: boolean): void {
  const requests = isJsonObject(document) ? arrayField(document, 'requests') : undefined;
  if (!isJsonObject(document) || requests === undefined) {
    throw new TranscriptFormatError('expected a Copilot chat export with a requests list');
  }
  const firstMetadata = requests.map(metadataOf).find((m) => m !== undefined);
  sink.beginSession(stringField(document, 'sessionId') ?? (firstMetadata && stringField(firstMetadata, 'sessionId')) ?? 'main');
  let globalContext = '';
  requests.forEach((raw, index) => {
    sink.countRecord();
    if (!isJsonObject(raw)) return sink.malformed(`requests[${index}] is not a request`);
    const id = stringField(raw, 'requestId') ?? `request-${index + 1}`;
    const at = toEpochMs(raw.timestamp);
    const metadata = metadataOf(raw);
    const turn = userTurn(id, raw, metadata, globalContext, sink);
    globalContext = turn.globalContext;
    if (sink.add(id, [{ role: 'user', blocks: turn.blocks }], at).length === 0) sink.skip('empty-request');
    const rounds = metadata === undefined ? undefined : arrayField(metadata, 'toolCallRounds');
    if (metadata !== undefined && rounds !== undefined && rounds.length > 0) {
      addRounds(id, rounds, metadata, failedCalls(raw, rounds), sink, at, keepNativeCompaction);
    } else addDisplayedResponse(id, raw, sink, at);
  });
}

/**
 * The user turn as the model saw it: the global context when it changed (it is rendered once and
 * repeated in later metadata), then the rendered message, in which only `<userRequest>` is the
 * user's. Without a rendered message, the typed text is all there is.
 */
function userTurn(
  id: string,
  raw: JsonObject,
  metadata: JsonObject | undefined,
  previousGlobal: string,
  sink: ImportSink,
): { blocks: Block[]; globalContext: string } {
  const global = renderRawParts(metadata?.renderedGlobalContext);
  const rendered = renderRawParts(metadata?.renderedUserMessage);
  sink.countPlaceholders(global.placeholders + rendered.placeholders);
  const unknownKinds = [...global.unknownKinds, ...rendered.unknownKinds];
  if (unknownKinds.length > 0) {
    sink.warn(`request ${id}: unknown prompt part kind(s) ${[...new Set(unknownKinds)].join(', ')} kept as JSON text`);
  }
  const changed = global.text !== '' && global.text !== previousGlobal;
  const typed = stringField(objectField(raw, 'message') ?? {}, 'text') ?? '';
  const words = rendered.text !== '' ? splitAuthoredTag(rendered.text, USER_REQUEST_TAG, typed) : typed === '' ? [] : [textBlock(typed)];
  return {
    blocks: [...(changed ? [injectedTextBlock(global.text)] : []), ...words],
    globalContext: changed ? global.text : previousGlobal,
  };
}

function metadataOf(request: unknown): JsonObject | undefined {
  if (!isJsonObject(request)) return undefined;
  return objectField(objectField(request, 'result') ?? {}, 'metadata');
}

/** One assistant message per round, each followed by its calls' results in call order. */
function addRounds(
  requestId: string,
  rounds: readonly unknown[],
  metadata: JsonObject,
  failed: ReadonlySet<number>,
  sink: ImportSink,
  at: number | undefined,
  keepNativeCompaction: boolean,
): void {
  const results = objectField(metadata, 'toolCallResults') ?? {};
  const called = new Set<string>();
  const summary = objectField(metadata, 'summary');
  let callIndex = 0;
  const failedIds = new Set<string>();
  rounds.forEach((round, index) => {
    sink.countRecord();
    if (!isJsonObject(round)) return sink.malformed(`request ${requestId}: toolCallRounds[${index}] is not a round`);
    const roundId = stringField(round, 'id') ?? `${requestId}/round-${index + 1}`;
    if (isJsonObject(round.thinking) || typeof round.thinking === 'string') sink.dropThinking(1);
    const response = stringField(round, 'response') ?? '';
    const calls = (arrayField(round, 'toolCalls') ?? []).filter(isJsonObject);
    const blocks: Block[] = [
      ...(response === '' ? [] : [textBlock(response)]),
      ...calls.map((call, n) => {
        const callId = idField(call, 'id') ?? `${roundId}:call-${n + 1}`;
        called.add(callId);
        if (failed.has(callIndex++)) failedIds.add(callId);
        return toolCallBlock(callId, stringField(call, 'name') ?? 'unknown', toToolInput(call.arguments));
      }),
    ];
    if (sink.add(roundId, [{ role: 'assistant', blocks }], at).length === 0) sink.skip('empty-round');
    for (const block of blocks) {
      if (block.type === 'toolCall' && block.id in results) addResult(block.id, results[block.id], sink, at, failedIds.has(block.id));
    }
    if (summary !== undefined && stringField(summary, 'toolCallRoundId') === roundId) {
      addSummary(requestId, summary, sink, at, keepNativeCompaction);
    }
  });
  // A result whose call is in no round still reached the model; pairing keeps it as injected text and counts it.
  for (const [callId, result] of Object.entries(results)) if (!called.has(callId)) addResult(callId, result, sink, at);
}

/**
 * The calls (by their place among the request's calls) the chat view showed as failed. Its tool
 * invocations carry their own ids, not the model's, so they are matched by order, and only when
 * there are exactly as many as the rounds have calls (the view also shows tools the model never called).
 */
function failedCalls(raw: JsonObject, rounds: readonly unknown[]): ReadonlySet<number> {
  const shown = (arrayField(raw, 'response') ?? []).filter((part) => isJsonObject(part) && part.kind === 'toolInvocationSerialized');
  const calls = rounds.reduce<number>((sum, round) => sum + (isJsonObject(round) ? (arrayField(round, 'toolCalls') ?? []).length : 0), 0);
  if (shown.length !== calls) return new Set();
  const failed = new Set<number>();
  shown.forEach((part, index) => {
    const details = isJsonObject(part) ? objectField(part, 'resultDetails') : undefined;
    if (details?.isError === true) failed.add(index);
  });
  return failed;
}

function addResult(callId: string, result: unknown, sink: ImportSink, at: number | undefined, failed = false): void {
  sink.countRecord();
  const rendered = copilotResultText(result);
  sink.countPlaceholders(rendered.placeholders);
  if (rendered.unknownParts > 0) sink.warn(`tool result ${callId}: ${rendered.unknownParts} part(s) of unknown shape kept as JSON text`);
  sink.add(`result-${callId}`, [{ role: 'tool', blocks: [toolResultBlock(callId, rendered.text, failed)] }], at);
}

/** Copilot's summary of the history so far replaced the rounds before it in later prompts, like a native compaction. */
function addSummary(requestId: string, summary: JsonObject, sink: ImportSink, at: number | undefined, keep: boolean): void {
  const text = stringField(summary, 'text') ?? '';
  if (!keep || text === '') {
    sink.skip('native-compaction-summary');
    return;
  }
  sink.add(`${requestId}/summary`, [{ role: 'user', blocks: [injectedTextBlock(`${COPILOT_SUMMARY_MARKER}\n${text}`)] }], at);
}

/** A request without rounds (an older export, a plain chat answer): its reply is the markdown the chat view showed. */
function addDisplayedResponse(requestId: string, raw: JsonObject, sink: ImportSink, at: number | undefined): void {
  const markdown = (arrayField(raw, 'response') ?? [])
    .filter(isJsonObject)
    .filter((part) => part.kind === undefined || part.kind === 'markdownContent')
    .map((part) => stringField(part, 'value') ?? stringField(objectField(part, 'content') ?? {}, 'value') ?? '')
    .join('');
  if (markdown === '') return;
  sink.warn(`request ${requestId}: no tool call rounds in its metadata; the reply is read from the response the chat view showed`);
  sink.add(`${requestId}/response`, [{ role: 'assistant', blocks: [textBlock(markdown)] }], at);
}
