/**
 * GitHub Copilot CLI's session log (`~/.copilot/session-state/<id>/events.jsonl`, which the Entire
 * CLI keeps as it is): one event per line, `{type, data, id, timestamp, parentId}`. The model's
 * context is in `system.message` (its instructions), `user.message` (what the user typed in
 * `content`, and what the model was sent in `transformedContent`), `assistant.message` (one model
 * call: its text and `toolRequests`), `tool.execution_complete` (a call's result, or its error when
 * `success` is false) and `system.notification` (a background command's completion, told to the
 * model). A user message with a `source` was written by something other than the user (a skill, a
 * file of instructions, another agent), so it is injected. Events of a subagent carry the
 * `parentToolCallId` of the call that started it; they are its own conversation, a sidechain
 * session after the main one. The rest (hooks, permissions, turns, the session's own notices) is
 * the CLI's bookkeeping.
 */
import { type Block, injectedTextBlock, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { dataText } from './dataText';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** Events that carry what the model saw or said; any one of them marks a Copilot CLI log. */
const CONVERSATION_EVENTS = new Set([
  'system.message',
  'user.message',
  'assistant.message',
  'tool.execution_complete',
  'system.notification',
]);

/** Families of events that are the CLI's own bookkeeping, never sent to the model. */
const BOOKKEEPING_PREFIXES = ['session.', 'hook.', 'permission.', 'assistant.turn_', 'tool.execution_', 'skill.', 'subagent.'];

/** Events with no family of their own that are bookkeeping too: the user stopping a turn. */
const BOOKKEEPING_EVENTS = new Set(['abort']);

/** True for an event of the log: `{type, data}` with one of its conversation event types. */
export function isCopilotCliEvent(record: JsonObject): boolean {
  return CONVERSATION_EVENTS.has(stringField(record, 'type') ?? '') && isJsonObject(record.data);
}

/** Adds the main conversation as the first session, then each subagent's as a sidechain session. */
export function importCopilotCli(records: readonly SourceRecord[], sink: ImportSink): void {
  const groups = new Map<string, SourceRecord[]>([['', []]]);
  let sessionId = 'main';
  for (const record of records) {
    const data = isJsonObject(record.value) ? objectField(record.value, 'data') : undefined;
    if (isJsonObject(record.value) && record.value.type === 'session.start') sessionId = stringField(data ?? {}, 'sessionId') ?? sessionId;
    const parent = data === undefined ? '' : (stringField(data, 'parentToolCallId') ?? '');
    const group = groups.get(parent);
    if (group === undefined) groups.set(parent, [record]);
    else group.push(record);
  }
  for (const [parent, group] of groups) {
    sink.beginSession(parent === '' ? sessionId : `subagent-${parent}`, parent !== '');
    const state: LogState = { sink, lastSystem: '' };
    group.forEach((record, index) => readEvent(record, index, state));
  }
}

/** What reading one conversation carries from event to event. */
interface LogState {
  readonly sink: ImportSink;
  /** The instructions last added: the CLI writes them again at each request, mostly unchanged. */
  lastSystem: string;
}

function readEvent(record: SourceRecord, index: number, state: LogState): void {
  const { sink } = state;
  sink.countRecord();
  const raw = record.value;
  const data = isJsonObject(raw) ? objectField(raw, 'data') : undefined;
  if (!isJsonObject(raw) || data === undefined) return sink.malformed(`event ${index + 1} is not an object with data`, record.line);
  const type = stringField(raw, 'type') ?? '';
  const event: ReadEvent = { id: idField(raw, 'id') ?? `event-${index + 1}`, at: toEpochMs(raw.timestamp), line: record.line, data };
  if (type === 'system.message') return addSystem(event, state);
  if (type === 'user.message') return addUser(event, sink);
  if (type === 'assistant.message') return addAssistant(event, sink);
  if (type === 'tool.execution_complete') return addResult(event, sink);
  if (type === 'system.notification') return addNotification(event, sink);
  if (BOOKKEEPING_EVENTS.has(type) || BOOKKEEPING_PREFIXES.some((prefix) => type.startsWith(prefix))) return sink.skip(type);
  sink.skip(type || 'untyped', {
    reason: `event type '${type || 'untyped'}' is not known to be model context; skipped`,
    line: record.line,
  });
}

/** One event being read. */
interface ReadEvent {
  readonly id: string;
  readonly at: number | undefined;
  readonly line?: number;
  readonly data: JsonObject;
}

function addSystem({ id, at, line, data }: ReadEvent, state: LogState): void {
  const text = stringField(data, 'content') ?? '';
  if (text === state.lastSystem) return state.sink.skip('repeated-system-prompt');
  state.lastSystem = text;
  state.sink.add(id, [{ role: 'system', blocks: [textBlock(text)] }], at, line);
}

/**
 * The text the model was sent, in which only what the user typed is theirs; what the CLI put
 * around it (the time, reminders) is injected. A message from another source is injected whole.
 */
function addUser({ id, at, line, data }: ReadEvent, sink: ImportSink): void {
  const typed = stringField(data, 'content') ?? '';
  const sent = stringField(data, 'transformedContent') ?? typed;
  const fromUser = data.source === undefined || data.source === 'user';
  if (sink.add(id, [{ role: 'user', blocks: fromUser ? framedBlocks(sent, typed) : [injectedTextBlock(sent)] }], at, line).length === 0) {
    sink.skip('empty-message');
  }
}

/** `sent` split around the user's `typed` words; when they are not in it, the typed words are what is kept. */
function framedBlocks(sent: string, typed: string): Block[] {
  const start = typed.trim() === '' ? -1 : sent.indexOf(typed);
  if (start < 0) return typed.trim() === '' ? [injectedTextBlock(sent)] : [textBlock(typed)];
  const before = sent.slice(0, start);
  const after = sent.slice(start + typed.length);
  return [
    ...(before.trim() === '' ? [] : [injectedTextBlock(before)]),
    textBlock(typed),
    ...(after.trim() === '' ? [] : [injectedTextBlock(after)]),
  ];
}

/** Reasoning the model kept to itself: its summary, or only its encrypted form. */
const REASONING_FIELDS = ['reasoningText', 'reasoningOpaque', 'encryptedContent'];

function addAssistant({ id, at, line, data }: ReadEvent, sink: ImportSink): void {
  const reasoned = REASONING_FIELDS.some((field) => (stringField(data, field) ?? '') !== '');
  if (reasoned) sink.dropThinking(1);
  const text = stringField(data, 'content') ?? '';
  const calls = (arrayField(data, 'toolRequests') ?? []).filter(isJsonObject);
  const blocks: Block[] = [
    ...(text === '' ? [] : [textBlock(text)]),
    ...calls.map((call, n) =>
      toolCallBlock(
        idField(call, 'toolCallId') ?? `${id}:call-${n + 1}`,
        stringField(call, 'name') ?? 'unknown',
        toToolInput(call.arguments),
      ),
    ),
  ];
  if (sink.add(idField(data, 'messageId') ?? id, [{ role: 'assistant', blocks }], at, line).length === 0) {
    sink.skip(reasoned ? 'reasoning-only' : 'empty-message');
  }
}

/** The result the model was given (`result.content`), or the error's message when the call failed. */
function addResult({ id, at, line, data }: ReadEvent, sink: ImportSink): void {
  const callId = idField(data, 'toolCallId') ?? `${id}:call`;
  const failed = data.success === false;
  const result = objectField(data, 'result');
  const content = failed ? dataText(objectField(data, 'error')?.message ?? data.error) : dataText(result?.content ?? result);
  sink.add(`${callId}:result`, [{ role: 'tool', blocks: [toolResultBlock(callId, content, failed)] }], at, line);
}

/** The CLI tells the model that a command it left running has finished. */
function addNotification({ id, at, line, data }: ReadEvent, sink: ImportSink): void {
  const text = stringField(data, 'content') ?? '';
  if (sink.add(id, [{ role: 'user', blocks: text === '' ? [] : [injectedTextBlock(text)] }], at, line).length === 0) {
    sink.skip('empty-message');
  }
}
