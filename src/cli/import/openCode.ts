/**
 * An OpenCode session as `opencode export` writes it (the Entire CLI keeps the same): `{info,
 * messages[]}`, each message `{info: {id, role, time}, parts[]}`. An assistant message holds one
 * model call per step (`step-start` … `step-finish`), and each `tool` part carries its call and its
 * result (`state.output`, or `state.error` when it failed; a shell command that exited non-zero, or that the tool
 * stopped, is completed, with its status in `state.metadata.exit`), so a step becomes the assistant's text
 * and calls followed by one tool message per result, as OpenCode sends them to the model.
 * A user's `synthetic` text is what OpenCode added (a file read for an @-mention), `ignored` text
 * was never sent, and a text or directory `file` part arrives through those synthetic texts. An
 * assistant message flagged `summary` is OpenCode's compaction summary (`agentSummary.ts`); one that
 * failed (`info.error`) is left out as OpenCode leaves it out, unless it was stopped after producing something.
 */
import { type Block, injectedTextBlock, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { addAgentSummary } from './agentSummary';
import { dataText } from './dataText';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import { IMAGE_PLACEHOLDER } from './renderContent';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** File parts whose content OpenCode sends as synthetic text parts beside them, not as the file. */
const INLINED_FILE_TYPES = new Set(['text/plain', 'application/x-directory']);

/** Part types that record how a reply was made (its steps, file snapshots, retries), not what the model saw. */
const BOOKKEEPING_PARTS = new Set(['step-start', 'step-finish', 'snapshot', 'patch', 'retry', 'agent']);

/** True for an export: a session `info` with an id and messages of `{info: {role}, parts}`. */
export function isOpenCodeExport(value: JsonObject): boolean {
  const info = objectField(value, 'info');
  if (info === undefined || idField(info, 'id') === undefined) return false;
  return (arrayField(value, 'messages') ?? []).some(
    (m) => isJsonObject(m) && typeof objectField(m, 'info')?.role === 'string' && Array.isArray(m.parts),
  );
}

/** Adds the session's messages, in order, to one session of the sink. */
export function importOpenCode(document: unknown, sink: ImportSink, keepNativeCompaction: boolean): void {
  const messages = isJsonObject(document) ? arrayField(document, 'messages') : undefined;
  if (!isJsonObject(document) || messages === undefined) {
    throw new TranscriptFormatError('expected an OpenCode export with a messages list');
  }
  sink.beginSession(idField(objectField(document, 'info') ?? {}, 'id') ?? 'main');
  messages.forEach((raw, index) => {
    sink.countRecord();
    const info = isJsonObject(raw) ? objectField(raw, 'info') : undefined;
    const parts = isJsonObject(raw) ? arrayField(raw, 'parts') : undefined;
    if (info === undefined || parts === undefined) return sink.malformed(`messages[${index}] is not a message with info and parts`);
    const message: ReadMessage = {
      id: idField(info, 'id') ?? `message-${index + 1}`,
      at: toEpochMs(objectField(info, 'time')?.created),
      parts: parts.filter(isJsonObject),
      sink,
    };
    const role = stringField(info, 'role');
    if (role === 'user') return addUser(message);
    if (role === 'assistant' && info.summary === true) return addSummary(message, keepNativeCompaction);
    if (role === 'assistant' && failedUnseen(info, message.parts)) return sink.skip('failed-reply');
    if (role === 'assistant') return addAssistant(message);
    sink.skip(role ?? 'no-role', { reason: `messages[${index}]: role '${role ?? ''}' is not known to be model context; skipped` });
  });
}

/** One message being read. */
interface ReadMessage {
  readonly id: string;
  readonly at: number | undefined;
  readonly parts: readonly JsonObject[];
  readonly sink: ImportSink;
}

function addUser({ id, at, parts, sink }: ReadMessage): void {
  const blocks = parts.flatMap((part) => userPartBlocks(part, id, sink));
  if (sink.add(id, [{ role: 'user', blocks }], at).length === 0) sink.skip('empty-message');
}

/** What one part of a user's message sent the model. */
function userPartBlocks(part: JsonObject, id: string, sink: ImportSink): Block[] {
  const type = stringField(part, 'type') ?? '';
  const text = stringField(part, 'text') ?? '';
  if (type === 'text' && (part.ignored === true || text === '')) return [];
  if (type === 'text') return [part.synthetic === true ? injectedTextBlock(text) : textBlock(text)];
  if (type === 'file') return fileBlocks(part, sink);
  if (type === 'subtask') return [injectedTextBlock(dataText({ agent: part.agent, description: part.description, prompt: part.prompt }))];
  if (type === 'compaction') sink.skip('native-compaction-request');
  else unknownPart(type, id, sink);
  return [];
}

/** A media file the user attached is a placeholder; a text file or a folder reached the model as synthetic text beside it. */
function fileBlocks(part: JsonObject, sink: ImportSink): Block[] {
  const mime = stringField(part, 'mime') ?? '';
  if (INLINED_FILE_TYPES.has(mime)) return [];
  sink.countPlaceholders(1);
  const name = stringField(part, 'filename') ?? stringField(part, 'url') ?? 'file';
  return [injectedTextBlock(mime.startsWith('image/') ? `${IMAGE_PLACEHOLDER} ${name}` : `[${mime || 'file'}: ${name}]`)];
}

/** Each step of the reply is one model call: its text and calls, then one tool message per result. */
function addAssistant({ id, at, parts, sink }: ReadMessage): void {
  const steps = splitSteps(parts);
  steps.forEach((step, n) => {
    const stepId = steps.length === 1 ? id : `${id}/step-${n + 1}`;
    const tools = step.filter((part) => part.type === 'tool');
    const blocks: Block[] = [];
    for (const part of step) {
      const type = stringField(part, 'type') ?? '';
      const text = stringField(part, 'text') ?? '';
      if (type === 'text' && text !== '') blocks.push(textBlock(text));
      else if (type === 'tool') blocks.push(callBlock(part, `${stepId}:call-${tools.indexOf(part) + 1}`));
      else if (type === 'reasoning') sink.dropThinking(1);
      else if (type !== 'text') unknownPart(type, id, sink);
    }
    if (sink.add(stepId, [{ role: 'assistant', blocks }], at).length === 0) sink.skip('empty-step');
    tools.forEach((tool, k) => addResult(tool, callIdOf(tool, `${stepId}:call-${k + 1}`), sink, at));
  });
}

/** A part that is not bookkeeping and not known to be model context is left out, with a warning. */
function unknownPart(type: string, id: string, sink: ImportSink): void {
  if (!BOOKKEEPING_PARTS.has(type)) sink.warn(`message ${id}: part type '${type}' is not known to be model context; skipped`);
}

function callIdOf(tool: JsonObject, fallback: string): string {
  return idField(tool, 'callID') ?? fallback;
}

function callBlock(tool: JsonObject, fallbackId: string): Block {
  return toolCallBlock(callIdOf(tool, fallbackId), stringField(tool, 'tool') ?? 'unknown', toToolInput(objectField(tool, 'state')?.input));
}

/** The parts between one `step-start` and the next; parts before the first step belong to the first. */
function splitSteps(parts: readonly JsonObject[]): JsonObject[][] {
  const steps: JsonObject[][] = [[]];
  for (const part of parts) {
    if (part.type === 'step-start' && steps[steps.length - 1].length > 0) steps.push([]);
    steps[steps.length - 1].push(part);
  }
  return steps;
}

/** A finished call's output, or its error; a call still pending or running when the session was saved has no result. */
function addResult(tool: JsonObject, callId: string, sink: ImportSink, at: number | undefined): void {
  const state = objectField(tool, 'state') ?? {};
  const status = stringField(state, 'status');
  if (status !== 'completed' && status !== 'error') return;
  const attachments = (arrayField(state, 'attachments') ?? []).filter(isJsonObject);
  sink.countPlaceholders(attachments.length);
  const content = [
    dataText(status === 'error' ? state.error : state.output),
    ...attachments.map((a) => `[${stringField(a, 'mime') ?? 'file'} attachment: ${stringField(a, 'filename') ?? 'file'}]`),
  ].join('\n');
  const failed = status === 'error' || failedExit(state);
  sink.add(`${callId}:result`, [{ role: 'tool', blocks: [toolResultBlock(callId, content, failed, stringField(tool, 'tool'))] }], at);
}

/**
 * True when the shell tool's record says the command exited non-zero, or never exited because the tool stopped it (the
 * user aborted it, its time ran out: `metadata.exit` is null): OpenCode marks such a call completed, and the output it
 * sends holds no status, so its record is the only word of the failure.
 */
function failedExit(state: JsonObject): boolean {
  const exit = objectField(state, 'metadata')?.exit;
  return exit === null || (typeof exit === 'number' && exit !== 0);
}

/** A reply that failed is left out of what OpenCode sends next, unless the user stopped it after it produced something. */
function failedUnseen(info: JsonObject, parts: readonly JsonObject[]): boolean {
  const error = objectField(info, 'error');
  if (error === undefined) return false;
  return !(error.name === 'MessageAbortedError' && parts.some((part) => part.type !== 'step-start' && part.type !== 'reasoning'));
}

function addSummary({ id, at, parts, sink }: ReadMessage, keep: boolean): void {
  const text = parts
    .filter((part) => part.type === 'text')
    .map((part) => stringField(part, 'text') ?? '')
    .join('\n');
  addAgentSummary(text, { sourceId: id, ...(at === undefined ? {} : { at }) }, sink, keep);
}
