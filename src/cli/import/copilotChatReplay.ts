/**
 * A Copilot chat replay (`*.chatreplay.json`, "Export prompts/logs as chat replay"):
 * `{exportedAt, prompts[]}`, each prompt with the `logs[]` of its agent iterations. The same prompt
 * repeats over consecutive entries, one per chunk of iterations, and is one user turn. The logs are
 * walked in order: a `request` is one model call (its reply becomes an assistant message), a
 * `toolCall` holds a call of that reply and its output, an `element` is a prompt size report.
 * Each request's `requestMessages` is the whole prompt so far; only its system prompt and the user
 * messages not seen before are read from it (the rest repeats the logs).
 */
import { type Block, injectedTextBlock, splitAuthoredTag, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { renderRawParts } from './copilotRawParts';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { MessageDraft } from './messageDraft';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** Roles as numbered in `requestMessages` (`Raw.ChatRole`). */
const SYSTEM_ROLE = 0;
const USER_ROLE = 1;

/** Adds the replay's turns to one session. */
export function importCopilotChatReplay(document: unknown, sink: ImportSink): void {
  const prompts = isJsonObject(document) ? arrayField(document, 'prompts') : undefined;
  if (prompts === undefined) throw new TranscriptFormatError('expected a Copilot chat replay with a prompts list');
  sink.beginSession('main');
  const reader = new ReplayReader(sink);
  prompts.forEach((entry, index) => {
    sink.countRecord();
    if (!isJsonObject(entry)) return sink.malformed(`prompts[${index}] is not a prompt`);
    reader.prompt(stringField(entry, 'prompt') ?? '', index);
    (arrayField(entry, 'logs') ?? []).forEach((log, n) => reader.log(log, `prompts[${index}].logs[${n}]`));
  });
  reader.finish();
}

class ReplayReader {
  private lastPrompt: string | undefined;
  /** A new prompt waits for its first request, whose user messages show how the model saw it. */
  private pending: { readonly text: string; readonly id: string } | undefined;
  private readonly seen = new Set<string>();
  private reply: MessageDraft | undefined;

  constructor(private readonly sink: ImportSink) {}

  prompt(text: string, index: number): void {
    if (text === this.lastPrompt) return;
    this.flushPrompt(undefined);
    this.lastPrompt = text;
    this.pending = { text, id: `prompt-${index + 1}` };
    this.reply = undefined;
  }

  log(raw: unknown, where: string): void {
    this.sink.countRecord();
    if (!isJsonObject(raw)) return this.sink.malformed(`${where} is not a log entry`);
    const kind = stringField(raw, 'kind');
    const id = stringField(raw, 'id') ?? where;
    if (kind === 'request') this.request(raw, id);
    else if (kind === 'toolCall') this.toolCall(raw, id);
    else if (kind === 'element') this.sink.skip('prompt-size-report');
    else {
      this.sink.skip(kind ?? 'untyped', { reason: `${where}: log kind '${kind ?? 'untyped'}' is not known to be model context; skipped` });
    }
  }

  finish(): void {
    this.flushPrompt(undefined);
  }

  private request(raw: JsonObject, id: string): void {
    const metadata = objectField(raw, 'metadata') ?? {};
    const at = toEpochMs(metadata.startTime);
    this.flushPrompt(raw, at, id);
    const response = objectField(raw, 'response') ?? {};
    const type = stringField(response, 'type');
    if (type !== undefined && type !== 'success') {
      this.sink.skip('failed-request', { reason: `request ${id} ended '${type}'; it produced no reply` });
      this.reply = undefined;
      return;
    }
    const message = response.message;
    const text = Array.isArray(message)
      ? message.filter((m): m is string => typeof m === 'string').join('')
      : typeof message === 'string'
        ? message
        : '';
    this.reply = this.sink.open(id, 'assistant', at);
    if (text !== '') this.reply.blocks.push(textBlock(text));
  }

  /** A call of the latest reply, run after it; its output follows as a tool message. */
  private toolCall(raw: JsonObject, id: string): void {
    const at = toEpochMs(raw.time);
    this.flushPrompt(undefined, at);
    this.reply ??= this.sink.open(`${id}:reply`, 'assistant', at);
    this.reply.blocks.push(toolCallBlock(id, stringField(raw, 'tool') ?? 'unknown', toToolInput(raw.args)));
    const output = raw.response;
    const text = Array.isArray(output)
      ? output.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('\n')
      : typeof output === 'string'
        ? output
        : '';
    this.sink.add(`${id}:result`, [{ role: 'tool', blocks: [toolResultBlock(id, text)] }], at);
  }

  /**
   * Adds the waiting prompt as a user message: the system prompt and user messages the request
   * sends for the first time, with the user's words (inside `<userRequest>`) as the only authored text.
   */
  private flushPrompt(request: JsonObject | undefined, at?: number, requestId?: string): void {
    const newMessages = request === undefined ? [] : this.unseenMessages(request);
    for (const system of newMessages.filter((m) => m.role === SYSTEM_ROLE)) {
      this.sink.add(`${requestId ?? 'request'}:system`, [{ role: 'system', blocks: [textBlock(system.text)] }], at);
    }
    if (this.pending === undefined) return;
    const typed = this.pending.text;
    const userTexts = newMessages.filter((m) => m.role === USER_ROLE).map((m) => m.text);
    const blocks: Block[] = [];
    let typedFound = false;
    for (const text of userTexts) {
      const split = splitAuthoredTag(text, 'userRequest', text.includes(typed) ? typed : undefined);
      typedFound ||= split.some((b) => b.injected !== true);
      blocks.push(...(split.some((b) => b.injected !== true) ? split : [injectedTextBlock(text)]));
    }
    if (!typedFound && typed !== '') blocks.push(textBlock(typed));
    if (this.sink.add(this.pending.id, [{ role: 'user', blocks }], at).length === 0) this.sink.skip('empty-prompt');
    this.pending = undefined;
  }

  private unseenMessages(request: JsonObject): { role: number; text: string }[] {
    const messages = arrayField(objectField(request, 'requestMessages') ?? {}, 'messages') ?? [];
    const unseen: { role: number; text: string }[] = [];
    for (const raw of messages) {
      if (!isJsonObject(raw) || (raw.role !== SYSTEM_ROLE && raw.role !== USER_ROLE)) continue;
      const rendered = renderRawParts(raw.content);
      this.sink.countPlaceholders(this.seen.has(rendered.text) ? 0 : rendered.placeholders);
      if (rendered.text === '' || this.seen.has(rendered.text)) continue;
      this.seen.add(rendered.text);
      unseen.push({ role: raw.role, text: rendered.text });
    }
    return unseen;
  }
}
