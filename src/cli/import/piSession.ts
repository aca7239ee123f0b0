/**
 * A session of Pi, the coding agent of pi-mono (`~/.pi/agent/sessions/<cwd>/<time>_<id>.jsonl`):
 * a `session` header, then entries. A `message` entry holds a message of the model's API (`user`,
 * `assistant` with `text`, `thinking` and `toolCall` blocks, `toolResult`) or one of Pi's own that
 * reach the model as user text: a command the user ran with `!` (`bashExecution`) and an
 * extension's message (`custom`). Since version 2 entries have an `id` and a `parentId` and form a
 * tree: the conversation is the path from the last entry back to the first, and entries on other
 * branches were left behind; a branch left behind comes back as a `branch_summary`. A `compaction`
 * entry is Pi's own summary of what came before (`agentSummary.ts`). Model and thinking-level
 * changes, labels and extensions' data are Pi's bookkeeping.
 */
import { type Block, injectedTextBlock, printedTextBlock, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { addAgentSummary } from './agentSummary';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';
import { renderContent } from './renderContent';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** Entries that change Pi's settings or keep an extension's data: never model context. */
const BOOKKEEPING_ENTRIES = new Set(['session', 'model_change', 'thinking_level_change', 'label', 'session_info', 'custom']);

/** True for a message entry of a Pi session: `{type: 'message', message: {role}}`. */
export function isPiEntry(record: JsonObject): boolean {
  return record.type === 'message' && typeof objectField(record, 'message')?.role === 'string';
}

/** Adds the entries on the session's current branch, in order, to one session. */
export function importPiSession(records: readonly SourceRecord[], sink: ImportSink, keepNativeCompaction: boolean): void {
  const header = records.map((r) => r.value).find((v) => isJsonObject(v) && v.type === 'session');
  sink.beginSession((isJsonObject(header) && idField(header, 'id')) || 'main');
  const onBranch = currentBranch(records);
  records.forEach((record, index) => {
    sink.countRecord();
    const raw = record.value;
    if (!isJsonObject(raw)) return sink.malformed(`entry ${index + 1} is not an object`, record.line);
    if (!onBranch.has(record)) return sink.skip('other-branch');
    const entry: ReadEntry = { raw, id: idField(raw, 'id') ?? `entry-${index + 1}`, at: toEpochMs(raw.timestamp), line: record.line, sink };
    const type = stringField(raw, 'type') ?? '';
    if (type === 'message') return addMessage(entry);
    if (type === 'compaction') return addAgentSummary(stringField(raw, 'summary') ?? '', source(entry), sink, keepNativeCompaction);
    if (type === 'branch_summary') return addInjected(entry, stringField(raw, 'summary') ?? '');
    if (type === 'custom_message') return addInjected(entry, renderContent(raw.content).text);
    if (BOOKKEEPING_ENTRIES.has(type)) return sink.skip(type);
    sink.skip(type || 'untyped', {
      reason: `entry type '${type || 'untyped'}' is not known to be model context; skipped`,
      line: record.line,
    });
  });
}

/**
 * The entries on the path from the last entry back to the root, by `parentId`. A session written
 * before entries had ids (version 1) is one line of entries, all on it.
 */
function currentBranch(records: readonly SourceRecord[]): ReadonlySet<SourceRecord> {
  const entries = records.filter((r) => isJsonObject(r.value) && r.value.type !== 'session');
  const byId = new Map<string, SourceRecord>();
  for (const record of entries) {
    const id = isJsonObject(record.value) ? idField(record.value, 'id') : undefined;
    if (id !== undefined) byId.set(id, record);
  }
  if (byId.size === 0) return new Set(records);
  const path = new Set<SourceRecord>(records.filter((r) => isJsonObject(r.value) && r.value.type === 'session'));
  let current: SourceRecord | undefined = entries[entries.length - 1];
  while (current !== undefined && !path.has(current)) {
    path.add(current);
    const parent: unknown = isJsonObject(current.value) ? current.value.parentId : undefined;
    current = typeof parent === 'string' ? byId.get(parent) : undefined;
  }
  return path;
}

/** One entry being read. */
interface ReadEntry {
  readonly raw: JsonObject;
  readonly id: string;
  readonly at: number | undefined;
  readonly line?: number;
  readonly sink: ImportSink;
}

function source({ id, at, line }: ReadEntry): { sourceId: string; at?: number; line?: number } {
  return { sourceId: id, ...(at === undefined ? {} : { at }), ...(line === undefined ? {} : { line }) };
}

function addMessage(entry: ReadEntry): void {
  const message = objectField(entry.raw, 'message') ?? {};
  const role = stringField(message, 'role') ?? '';
  if (role === 'user') return addContent(entry, message.content, false);
  if (role === 'assistant') return addAssistant(entry, message);
  if (role === 'toolResult') return addToolResult(entry, message);
  if (role === 'bashExecution' && message.excludeFromContext === true) return entry.sink.skip('excluded-command');
  if (role === 'bashExecution') return addPrinted(entry, commandText(message));
  if (role === 'custom') return addContent(entry, message.content, true);
  entry.sink.skip(`message:${role || 'no-role'}`, {
    reason: `message role '${role}' is not known to be model context; skipped`,
    line: entry.line,
  });
}

/** Text (and media, as placeholders) the user wrote, or an extension added when `injected`. */
function addContent({ id, at, line, sink }: ReadEntry, content: unknown, injected: boolean): void {
  const rendered = renderContent(content);
  sink.countPlaceholders(rendered.placeholders);
  const blocks = rendered.text === '' ? [] : [injected ? injectedTextBlock(rendered.text) : textBlock(rendered.text)];
  if (sink.add(id, [{ role: 'user', blocks }], at, line).length === 0) sink.skip('empty-message');
}

function addAssistant({ id, at, line, sink }: ReadEntry, message: JsonObject): void {
  const blocks: Block[] = [];
  for (const block of (arrayField(message, 'content') ?? []).filter(isJsonObject)) {
    const type = stringField(block, 'type');
    if (type === 'text' && (stringField(block, 'text') ?? '') !== '') blocks.push(textBlock(stringField(block, 'text') ?? ''));
    else if (type === 'thinking') sink.dropThinking(1);
    else if (type === 'toolCall') {
      blocks.push(
        toolCallBlock(
          idField(block, 'id') ?? `${id}:call-${blocks.length + 1}`,
          stringField(block, 'name') ?? 'unknown',
          toToolInput(block.arguments),
        ),
      );
    }
  }
  if (sink.add(id, [{ role: 'assistant', blocks }], at, line).length === 0) sink.skip('empty-message');
}

function addToolResult({ id, at, line, sink }: ReadEntry, message: JsonObject): void {
  const rendered = renderContent(message.content);
  sink.countPlaceholders(rendered.placeholders);
  const callId = idField(message, 'toolCallId') ?? `${id}:call`;
  const block = toolResultBlock(callId, rendered.text, message.isError === true, stringField(message, 'toolName'));
  sink.add(id, [{ role: 'tool', blocks: [block] }], at, line);
}

function addInjected({ id, at, line, sink }: ReadEntry, text: string): void {
  if (sink.add(id, [{ role: 'user', blocks: text === '' ? [] : [injectedTextBlock(text)] }], at, line).length === 0) {
    sink.skip('empty-message');
  }
}

/** What Pi printed of a command the user ran with `!`: read as a command's output, never as the user's words. */
function addPrinted({ id, at, line, sink }: ReadEntry, text: string): void {
  if (sink.add(id, [{ role: 'user', blocks: text === '' ? [] : [printedTextBlock(text)] }], at, line).length === 0) {
    sink.skip('empty-message');
  }
}

/** A command the user ran, as Pi tells the model about it: the command, its output and how it ended. */
function commandText(message: JsonObject): string {
  const output = stringField(message, 'output') ?? '';
  const exit = message.exitCode;
  const ending =
    message.cancelled === true
      ? '\n\n(command cancelled)'
      : typeof exit === 'number' && exit !== 0
        ? `\n\nCommand exited with code ${exit}`
        : '';
  return `Ran \`${stringField(message, 'command') ?? ''}\`\n${output === '' ? '(no output)' : `\`\`\`\n${output}\n\`\`\``}${ending}`;
}
