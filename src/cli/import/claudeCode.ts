/**
 * Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`). User and assistant
 * records are model context, and so is a prompt typed while the agent worked that reached the model
 * as a queued command (an `attachment` record of newer versions, at the place it was sent); the rest
 * are UI and bookkeeping events, counted and skipped.
 * The top-level `toolUseResult` of a result record is a structured copy the model never saw, so
 * only `message.content` is read.
 */
import { importClaudeCodeConversation, type ConversationRecord } from './claudeCodeConversation';
import type { ImportSink } from './importSink';
import { isJsonObject, stringField, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';

/** Record types Claude Code writes that are never sent to the model. */
const NON_CONTEXT_TYPES = new Set([
  'progress',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'summary',
  'last-prompt',
  'custom-title',
]);

const MAIN_CHAIN = '';

interface QueuedPrompt {
  readonly position: number;
  readonly line?: number;
  readonly text: string;
}

/**
 * Imports the main conversation as the first session and each subagent (`isSidechain`) chain as
 * its own session; a subagent file on its own has only the subagent's session. Records are read in
 * file order: parallel tool calls make `parentUuid` fan out, but the file order is the order the
 * model saw (rewound branches are not reconstructed).
 */
export function importClaudeCode(records: readonly SourceRecord[], sink: ImportSink, keepNativeCompaction: boolean): void {
  const chains = new Map<string, ConversationRecord[]>();
  const skippedAttachments = new SkippedAttachments();
  const queued: QueuedPrompt[] = [];
  const userTexts: { readonly position: number; readonly text: string }[] = [];
  const addToChain = (entry: ConversationRecord): void => {
    const chain = entry.record.isSidechain === true ? `agent-${stringField(entry.record, 'agentId') ?? 'sidechain'}` : MAIN_CHAIN;
    const chainRecords = chains.get(chain) ?? [];
    chains.set(chain, chainRecords);
    chainRecords.push(entry);
  };
  records.forEach((source, position) => {
    sink.countRecord();
    const record = source.value;
    if (!isJsonObject(record)) return sink.malformed('not a JSON object', source.line);
    const type = stringField(record, 'type') ?? '';
    if (type === 'user' || type === 'assistant') {
      if (!isJsonObject(record.message)) return sink.malformed(`${type} record without a message`, source.line);
      addToChain({ line: source.line, record });
      // A compaction summary quotes earlier prompts; it does not show that they were recorded.
      if (type === 'user' && record.isCompactSummary !== true) userTexts.push({ position, text: userText(record.message) });
      return;
    }
    const queuedCommand = queuedCommandRecord(record);
    if (queuedCommand) {
      addToChain({ line: source.line, record: queuedCommand });
      userTexts.push({ position, text: userText(queuedCommand.message as JsonObject) });
      return;
    }
    if (type === 'queue-operation' && record.operation === 'enqueue') {
      const text = stringField(record, 'content')?.trim() ?? '';
      if (text !== '') queued.push({ position, line: source.line, text });
    }
    if (type === 'attachment') {
      skippedAttachments.add(attachmentType(record), source.line);
      return sink.skip(type);
    }
    const unknown = !NON_CONTEXT_TYPES.has(type);
    sink.skip(
      type || 'untyped',
      unknown ? { line: source.line, reason: `record type '${type || 'untyped'}' is not known to be model context; skipped` } : undefined,
    );
  });

  const ordered = [...chains.entries()].sort(([a], [b]) => (a === MAIN_CHAIN ? -1 : b === MAIN_CHAIN ? 1 : 0));
  for (const [chain, chainRecords] of ordered) {
    sink.beginSession(chain === MAIN_CHAIN ? (stringField(chainRecords[0].record, 'sessionId') ?? 'main') : chain, chain !== MAIN_CHAIN);
    importClaudeCodeConversation(chainRecords, sink, keepNativeCompaction);
  }
  warnAboutUnrecordedPrompts(queued, userTexts, sink);
  skippedAttachments.report(sink);
}

/** An attachment record's own type (`nested_memory`, `task_reminder`, …). */
function attachmentType(record: JsonObject): string {
  return (isJsonObject(record.attachment) ? stringField(record.attachment, 'type') : undefined) ?? 'untyped';
}

/**
 * Attachment records other than a queued command, by their type: what Claude Code adds for the model
 * on its own (reminders, memory files, listings of tools and skills, what hooks said). ctx does not
 * import them, as it does not import the system prompt; a newer session has dozens, so they are told
 * in one warning, at the first of them, with how many there were of each type.
 */
class SkippedAttachments {
  private readonly byType = new Map<string, number>();
  private firstLine: number | undefined;
  private count = 0;

  add(type: string, line?: number): void {
    if (this.count++ === 0) this.firstLine = line;
    this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
  }

  report(sink: ImportSink): void {
    if (this.count === 0) return;
    const types = [...this.byType].map(([type, n]) => `${type} ${n}`).join(', ');
    const records = this.count === 1 ? 'a Claude Code attachment' : `${this.count} Claude Code attachments`;
    sink.warn(`${records} skipped (${types}): what Claude Code adds for the model on its own is not imported`, this.firstLine);
  }
}

/**
 * A prompt typed while the agent works is queued; most come back later as a user record, but some
 * reach the model only as a queued-message reminder and exist nowhere else in the file. Those are
 * not imported (their place in the context is unknown) but they are not hidden either.
 */
function warnAboutUnrecordedPrompts(
  queued: readonly QueuedPrompt[],
  userTexts: readonly { position: number; text: string }[],
  sink: ImportSink,
): void {
  for (const prompt of queued) {
    const repeated = userTexts.some((user) => user.position > prompt.position && user.text.includes(prompt.text));
    if (!repeated) {
      sink.warn(
        `queued prompt (${prompt.text.length} characters) appears in no later user record; ` +
          `it may have reached the model as a queued message and is not imported`,
        prompt.line,
      );
    }
  }
}

/**
 * The user record a queued command stands for: newer versions send a prompt queued while the agent
 * worked with the next request and record it only as an attachment, where it was sent. Undefined for
 * any other record.
 */
function queuedCommandRecord(record: JsonObject): JsonObject | undefined {
  if (stringField(record, 'type') !== 'attachment' || !isJsonObject(record.attachment)) return undefined;
  const attachment = record.attachment;
  if (stringField(attachment, 'type') !== 'queued_command') return undefined;
  const prompt = attachment.prompt;
  const content = typeof prompt === 'string' ? prompt.trim() : Array.isArray(prompt) ? prompt : undefined;
  if (content === undefined || content.length === 0) return undefined;
  return { ...record, type: 'user', message: { role: 'user', content } };
}

function userText(message: JsonObject): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (isJsonObject(block) ? (stringField(block, 'text') ?? '') : '')).join('\n');
}
