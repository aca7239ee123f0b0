/**
 * OpenAI Codex CLI rollout JSONL (`~/.codex/sessions/…/rollout-*.jsonl`): `{timestamp, type,
 * payload}` records, where `response_item` payloads are what the model saw and `event_msg`,
 * `turn_context` are the UI's and the harness's bookkeeping. Older rollouts have no wrapper: a
 * first line `{id, instructions}` and the response items themselves. Calls pair with their outputs
 * by `call_id`; an `exec_command` that keeps running answers "Process running with session ID N"
 * and its output comes back in the result of a later `write_stdin` call, each kept with its own call.
 * The items of one model response (text, then calls) merge into one assistant message. A
 * `user_message` event no user item stands for is the request itself (`codexEventRequests.ts`). A
 * `tool_search_call` (the agent looking up deferred tools) is a call too, its `tool_search_output` the result.
 */
import { type Block, injectedTextBlock, splitInjectedTags, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { isInjectedEvent, unpairedRequestEvents } from './codexEventRequests';
import { unwrapCodexRecord, type CodexItem } from './codexRecord';
import { CODEX_INJECTED_TAGS, codexUserBlocks, userMessageEvents } from './codexUserText';
import type { ImportSink } from './importSink';
import { injectedPart } from './messageDraft';
import { codexExecOutput, codexOutputEnvelope, dataText } from './dataText';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { MessageDraft } from './messageDraft';
import type { SourceRecord } from './parseTranscriptText';
import { IMAGE_PLACEHOLDER, renderContent } from './renderContent';
import { toToolInput } from './toolInput';

/**
 * Codex's own answer to a call it could not carry out, sent to the model in place of any output: arguments it could not
 * read (`failed to parse function arguments: …`), a tool that failed as a tool (`write_stdin failed: …`). Such an
 * output has no status header: it failed, though nothing flags it.
 */
const REFUSED_CALL = /^(?:failed to parse function arguments|[a-z]+(?:_[a-z]+)+ failed): \S/;

/** How a kept Codex compaction summary starts, so no reader mistakes it for the user's words. */
export const CODEX_COMPACTION_MARKER = '[Codex compaction summary]';

/** Adds the rollout as one session named after its id. */
export function importCodexRollout(records: readonly SourceRecord[], sink: ImportSink, keepNativeCompaction: boolean): void {
  const items = records.map((record, index) => unwrapCodexRecord(record, index));
  const events = items.filter((item) => item?.kind === 'event_msg');
  const typed = userMessageEvents(events.flatMap((item) => (item === undefined ? [] : [item.payload])));
  const requests = unpairedRequestEvents(items);
  const reader = new RolloutReader(sink, typed, keepNativeCompaction);
  items.forEach((item, index) => {
    sink.countRecord();
    if (item === undefined) return sink.malformed('not a rollout record', records[index].line);
    if (requests.has(index)) return reader.requestEvent(item);
    reader.read(item);
  });
}

class RolloutReader {
  private begun = false;
  /** The assistant message of the response being read: its text and calls until something else arrives. */
  private reply: MessageDraft | undefined;

  constructor(
    private readonly sink: ImportSink,
    private readonly typed: ReadonlySet<string>,
    private readonly keepNativeCompaction: boolean,
  ) {}

  read(item: CodexItem): void {
    switch (item.kind) {
      case 'session_meta':
        return this.sessionMeta(item);
      case 'response_item':
        return this.responseCodexItem(item);
      case 'compacted':
        return this.compacted(item);
      case 'event_msg':
      case 'turn_context':
        return this.sink.skip(item.kind);
      default:
        if (item.kind.startsWith('record-')) return this.sink.skip(item.kind);
        return this.sink.skip(item.kind, {
          ...lineOf(item),
          reason: `record type '${item.kind}' is not known to be model context; skipped`,
        });
    }
  }

  /** A `user_message` event that is the only record of what the user asked in its turn. */
  requestEvent(item: CodexItem): void {
    this.reply = undefined;
    const text = stringField(item.payload, 'message') ?? '';
    const images = (arrayField(item.payload, 'images') ?? []).map(() => textBlock(IMAGE_PLACEHOLDER));
    this.sink.countPlaceholders(images.length);
    const blocks = isInjectedEvent(item) ? [injectedTextBlock(text)] : splitInjectedTags(text, CODEX_INJECTED_TAGS);
    const parts = [{ role: 'user' as const, blocks: [...blocks.filter((block) => block.text !== ''), ...images] }];
    if (this.sink.add(item.sourceId, parts, item.at, item.line).length === 0) this.sink.skip('empty-message');
  }

  private sessionMeta(item: CodexItem): void {
    if (this.begun) return this.sink.skip('session_meta');
    this.begun = true;
    this.sink.beginSession(stringField(item.payload, 'id') ?? 'main');
    const instructions = objectField(item.payload, 'base_instructions');
    const text = instructions === undefined ? stringField(item.payload, 'instructions') : stringField(instructions, 'text');
    if (text !== undefined && text !== '') {
      this.sink.add(`${item.sourceId}:instructions`, [{ role: 'system', blocks: [textBlock(text)] }], item.at, item.line);
    }
  }

  private responseCodexItem(item: CodexItem): void {
    const p = item.payload;
    const type = stringField(p, 'type') ?? '';
    switch (type) {
      case 'message':
        return this.message(item);
      case 'reasoning':
        return this.reasoning(item);
      case 'function_call':
        return this.call(item, toolCallBlock(callId(p, item), stringField(p, 'name') ?? 'unknown', toToolInput(p.arguments)));
      case 'custom_tool_call':
        return this.call(
          item,
          toolCallBlock(callId(p, item), stringField(p, 'name') ?? 'unknown', { input: stringField(p, 'input') ?? '' }),
        );
      case 'local_shell_call':
        return this.call(item, toolCallBlock(callId(p, item), 'local_shell', objectField(p, 'action') ?? {}));
      case 'web_search_call':
        // A search the provider ran: the rollout records no output for it, so the call stays unanswered.
        return this.call(item, toolCallBlock(callId(p, item), 'web_search', objectField(p, 'action') ?? {}));
      case 'tool_search_call':
        // The agent looking up deferred tools (an MCP app's) by query before it calls them.
        return this.call(item, toolCallBlock(callId(p, item), 'tool_search', toToolInput(p.arguments)));
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.output(item);
      case 'tool_search_output':
        return this.toolSearchOutput(item);
      default:
        this.sink.skip(`response_item-${type || 'untyped'}`, {
          ...lineOf(item),
          reason: `response item type '${type || 'untyped'}' is not known; skipped`,
        });
    }
  }

  private message(item: CodexItem): void {
    const p = item.payload;
    const role = stringField(p, 'role') ?? '';
    const content = arrayField(p, 'content') ?? [];
    if (role === 'assistant') {
      const rendered = this.rendered(item, content);
      this.replyDraft(item).blocks.push(...(rendered === '' ? [] : [textBlock(rendered)]));
      return;
    }
    this.reply = undefined;
    if (role === 'developer' || role === 'system') {
      const text = this.rendered(item, content);
      if (this.sink.add(item.sourceId, [{ role: 'system', blocks: [textBlock(text)] }], item.at, item.line).length === 0) {
        this.sink.skip('empty-message');
      }
      return;
    }
    const user = codexUserBlocks(content, this.typed);
    this.sink.countPlaceholders(user.placeholders);
    if (user.unknownTypes.length > 0) {
      this.sink.warn(
        `${item.sourceId}: unknown content part type(s) ${[...new Set(user.unknownTypes)].join(', ')} kept as JSON text`,
        item.line,
      );
    }
    const part = { role: 'user' as const, blocks: user.blocks };
    // A message of a role nobody here knows is kept, as injected text.
    const parts = role === 'user' ? [part] : [injectedPart(part)];
    if (role !== 'user') this.sink.warn(`${item.sourceId}: message role '${role || 'missing'}' kept as injected user text`, item.line);
    if (this.sink.add(item.sourceId, parts, item.at, item.line).length === 0) this.sink.skip('empty-message');
  }

  /**
   * The reasoning itself (encrypted, or raw text) is thinking, not model context here, and is only
   * counted. Its summary (`**Heading**` and a few lines) is the agent stating its plan in its own
   * words: kept as text of the response it starts.
   */
  private reasoning(item: CodexItem): void {
    this.sink.dropThinking(1);
    const summary = (arrayField(item.payload, 'summary') ?? [])
      .flatMap((part) => (isJsonObject(part) ? [stringField(part, 'text') ?? ''] : typeof part === 'string' ? [part] : []))
      .map((text) => text.trim())
      .filter((text) => text !== '')
      .join('\n\n');
    if (summary !== '') this.replyDraft(item).blocks.push(textBlock(summary));
  }

  /** The text of assistant or developer content; media become placeholders, unknown parts JSON, both counted. */
  private rendered(item: CodexItem, content: readonly unknown[]): string {
    const rendered = renderContent(content);
    this.sink.countPlaceholders(rendered.placeholders);
    if (rendered.unknownTypes.length > 0) {
      this.sink.warn(
        `${item.sourceId}: unknown content part type(s) ${[...new Set(rendered.unknownTypes)].join(', ')} kept as JSON text`,
        item.line,
      );
    }
    return rendered.text;
  }

  private call(item: CodexItem, block: Block): void {
    this.replyDraft(item).blocks.push(block);
  }

  private output(item: CodexItem): void {
    this.reply = undefined;
    const p = item.payload;
    const output = p.output;
    const raw =
      typeof output === 'string'
        ? output
        : isJsonObject(output) && typeof output.content === 'string'
          ? output.content
          : Array.isArray(output)
            ? renderContent(output).text
            : dataText(output ?? '');
    // A script tool's output comes as a list of text parts, its header the first of them.
    const envelope = (typeof output === 'string' ? codexOutputEnvelope(output) : undefined) ?? codexExecOutput(raw);
    const text = envelope?.output ?? raw;
    const block = toolResultBlock(callId(p, item), text, envelope?.failed ?? REFUSED_CALL.test(text));
    this.sink.add(item.sourceId, [{ role: 'tool', blocks: [block] }], item.at, item.line);
  }

  /** The tools a search found, as the definitions the model was then given (JSON), answering its call. */
  private toolSearchOutput(item: CodexItem): void {
    this.reply = undefined;
    const p = item.payload;
    const text = JSON.stringify(p.tools ?? []);
    this.sink.add(item.sourceId, [{ role: 'tool', blocks: [toolResultBlock(callId(p, item), text)] }], item.at, item.line);
  }

  private compacted(item: CodexItem): void {
    this.reply = undefined;
    const text = stringField(item.payload, 'message') ?? '';
    if (!this.keepNativeCompaction || text === '') return this.sink.skip('native-compaction-summary');
    this.sink.add(
      item.sourceId,
      [injectedPart({ role: 'user', blocks: [textBlock(`${CODEX_COMPACTION_MARKER}\n${text}`)] })],
      item.at,
      item.line,
    );
  }

  private replyDraft(item: CodexItem): MessageDraft {
    this.reply ??= this.sink.open(item.sourceId, 'assistant', item.at, item.line);
    return this.reply;
  }
}

function callId(payload: JsonObject, item: CodexItem): string {
  return idField(payload, 'call_id') ?? idField(payload, 'id') ?? `${item.sourceId}:call`;
}

function lineOf(item: CodexItem): { line?: number } {
  return item.line === undefined ? {} : { line: item.line };
}
