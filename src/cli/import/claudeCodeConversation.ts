/**
 * One Claude Code conversation (the main chain or a subagent's) from its user and assistant records.
 * What Claude Code itself adds to a user turn is injected text: `isMeta` records (skill text,
 * caveats, a slash command's prompt), its own compaction summary, and the tags it wraps reminders,
 * notifications and local command output in. The prompt of a slash command the user typed, which
 * Claude Code writes as an `isMeta` record right after the command, is also what the user asked for
 * (`TextBlock.requested`).
 */
import { type Block, injectedTextBlock, printedTextBlock } from '../../engine/host/messages';
import { convertAssistantContent, convertUserContent, type ConvertedContent } from './anthropicContent';
import type { ImportSink } from './importSink';
import { injectedPart, requestedPart } from './messageDraft';
import { isJsonObject, stringField, type JsonObject } from './jsonShape';
import type { DraftPart, MessageDraft } from './messageDraft';
import { toEpochMs } from './timestamps';

/** How a kept native compaction summary starts, so no reader mistakes it for something the user typed. */
export const CLAUDE_CODE_COMPACTION_MARKER = '[Claude Code compaction summary]';

/**
 * Tags Claude Code puts into a user's text for context it adds itself. The list is not what
 * decides alone: a text block that opens with a tag of any name is Claude Code's own addition
 * (it gives each one a block of its own), and a frame's end is its last closing tag, never the first.
 */
export const CLAUDE_CODE_INJECTED_TAGS: readonly string[] = [
  'system-reminder',
  'task-notification',
  'local-command-stdout',
  'local-command-stderr',
  'bash-stdout',
  'bash-stderr',
  'user-prompt-submit-hook',
  'ide_selection',
  'ide_opened_file',
  'ide_diagnostics',
];

/** Frames of output Claude Code printed of what it ran itself: a `!` shell command, a local slash command. */
export const CLAUDE_CODE_PRINTED_TAGS: readonly string[] = ['local-command-stdout', 'local-command-stderr', 'bash-stdout', 'bash-stderr'];

/**
 * Frames Claude Code opens a turn of its own with, never one of the user's: a background task's
 * `<task-notification>`, followed in the same text by its instruction to read the task's output.
 */
export const CLAUDE_CODE_TURN_TAGS: readonly string[] = ['task-notification'];

/** A user or assistant record, already checked to have a `message` object. */
export interface ConversationRecord {
  readonly line?: number;
  readonly record: JsonObject;
}

/** The reply being assembled: Claude Code writes one record per content block of an API reply. */
interface OpenReply {
  readonly apiMessageId: string;
  readonly draft: MessageDraft;
}

/**
 * Adds the conversation's messages to the current session of the sink. Records of one API reply
 * (same `message.id`) merge into one assistant message even when results of its first calls were
 * written between them; those results then follow the merged message, as the model saw them.
 */
export function importClaudeCodeConversation(
  records: readonly ConversationRecord[],
  sink: ImportSink,
  keepNativeCompaction: boolean,
): void {
  let openReply: OpenReply | undefined;
  // The user's slash command just typed, whose prompt Claude Code writes in the next record.
  let typed = false;
  for (const { line, record } of records) {
    const message = isJsonObject(record.message) ? record.message : {};
    const id = stringField(record, 'uuid') ?? `line-${line ?? 'unknown'}`;
    const at = toEpochMs(record.timestamp);
    if (record.type === 'assistant') {
      typed = false;
      const converted = convertAssistantContent(message.content);
      account(converted, sink, line);
      const reply = converted.parts[0]?.blocks ?? [];
      // A failed model call is written as an assistant record of Claude Code's own (`isApiErrorMessage`): what it
      // printed, not the model's words.
      const blocks = record.isApiErrorMessage === true ? reply.map((b) => (b.type === 'text' ? printedTextBlock(b.text) : b)) : reply;
      const apiMessageId = stringField(message, 'id');
      if (openReply !== undefined && openReply.apiMessageId === apiMessageId) {
        openReply.draft.blocks.push(...blocks);
        continue;
      }
      const draft = sink.open(id, 'assistant', at, line);
      draft.blocks.push(...blocks);
      openReply = apiMessageId === undefined ? undefined : { apiMessageId, draft };
      continue;
    }
    if (record.isCompactSummary === true && !keepNativeCompaction) {
      sink.skip('native-compaction-summary');
      openReply = undefined;
      continue;
    }
    const command = typedCommand(message.content);
    const converted = convertUserContent(command ?? message.content, CLAUDE_CODE_INJECTED_TAGS, {
      leadingTagFrames: true,
    });
    account(converted, sink, line);
    // A typed command's prompt is what the user asked for, in the words of whoever wrote the command.
    const commandPrompt = typed && record.isMeta === true && converted.parts.every((part) => part.role === 'user');
    typed = command !== undefined;
    const parts = (
      record.isCompactSummary === true
        ? markCompactionSummary(converted.parts)
        : commandPrompt
          ? converted.parts.map(requestedPart)
          : record.isMeta === true || isHostTurn(record, message.content)
            ? converted.parts.map(injectedPart)
            : converted.parts
    ).map(printedFrames);
    if (sink.add(id, parts, at, line).length === 0) sink.skip('empty-user-record');
    // A user's own words end the reply; its tool results do not.
    if (parts.some((part) => part.role === 'user')) openReply = undefined;
  }
}

/**
 * True for a user record Claude Code wrote itself: its note that the user stopped a reply, one whose `origin` names
 * another source than a person (newer versions say so), or whose text opens with a frame of a turn of its own
 * ({@link CLAUDE_CODE_TURN_TAGS}), what older versions give alone.
 */
function isHostTurn(record: JsonObject, content: unknown): boolean {
  if (INTERRUPTION_NOTE.test(onlyText(content)?.trim() ?? '')) return true;
  const origin = isJsonObject(record.origin) ? stringField(record.origin, 'kind') : undefined;
  if (origin !== undefined) return origin !== 'human';
  const text = typeof content === 'string' ? content : undefined;
  const opening = text === undefined ? undefined : /^\s*<([A-Za-z][\w.:-]*)>/.exec(text)?.[1];
  return opening !== undefined && CLAUDE_CODE_TURN_TAGS.includes(opening);
}

/**
 * The note Claude Code writes as a turn of its own when the user stops a reply: `[Request interrupted by user]`, `[Request
 * interrupted by user for tool use]`. The user pressed a key; the words are Claude Code's.
 */
const INTERRUPTION_NOTE = /^\[Request interrupted by user[^\]\n]*\]$/;

/** The text of content that is one text: a string, or a list of one text block. */
function onlyText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  const only: unknown = Array.isArray(content) && content.length === 1 ? content[0] : undefined;
  return isJsonObject(only) && only.type === 'text' ? stringField(only, 'text') : undefined;
}

/** The markup Claude Code records a slash command in: `<command-name>/review</command-name>`, its message and its args. */
const COMMAND_ELEMENT = /<command-(name|message|args)>([\s\S]*?)<\/command-\1>/g;

/**
 * A slash command as the user typed it (`/review src/app.ts`), when a user text is nothing but Claude Code's markup
 * of one: the markup is the tool's, the command and its arguments are the user's words.
 */
function typedCommand(content: unknown): string | undefined {
  const text = onlyText(content);
  if (text === undefined || !text.includes('<command-name>')) return undefined;
  if (text.replace(COMMAND_ELEMENT, '').trim() !== '') return undefined;
  const parts = new Map([...text.matchAll(COMMAND_ELEMENT)].map((m) => [m[1], m[2].trim()]));
  const name = parts.get('name') ?? '';
  if (name === '') return undefined;
  const args = parts.get('args') ?? '';
  return args === '' ? name : `${name} ${args}`;
}

/** The part with each injected frame of Claude Code's printed output marked as printed. */
function printedFrames(part: DraftPart): DraftPart {
  if (!part.blocks.some(isPrintedFrame)) return part;
  return { role: part.role, blocks: part.blocks.map((b) => (isPrintedFrame(b) && b.type === 'text' ? printedTextBlock(b.text) : b)) };
}

function isPrintedFrame(block: Block): boolean {
  if (block.type !== 'text' || block.injected !== true) return false;
  const opening = /^\s*<([A-Za-z][\w.:-]*)[\s>]/.exec(block.text)?.[1];
  return opening !== undefined && CLAUDE_CODE_PRINTED_TAGS.includes(opening);
}

function account(converted: ConvertedContent, sink: ImportSink, line: number | undefined): void {
  sink.dropThinking(converted.thinkingBlocks);
  sink.countPlaceholders(converted.placeholders);
  if (converted.unknownTypes.length > 0) {
    sink.warn(`unknown content block type(s) ${[...new Set(converted.unknownTypes)].join(', ')} kept as JSON text`, line);
  }
}

/** Claude Code's summary is its model's words about the past, not the user's: all of it is injected. */
function markCompactionSummary(parts: readonly DraftPart[]): DraftPart[] {
  let marked = false;
  return parts.map((part) => {
    if (marked || part.role !== 'user') return part;
    marked = true;
    const [first, ...rest] = part.blocks;
    const head: Block =
      first?.type === 'text'
        ? injectedTextBlock(`${CLAUDE_CODE_COMPACTION_MARKER}\n${first.text}`)
        : injectedTextBlock(CLAUDE_CODE_COMPACTION_MARKER);
    return injectedPart({ role: 'user', blocks: first?.type === 'text' ? [head, ...rest] : [head, ...part.blocks] });
  });
}
