/**
 * Which transcript format a parsed text is, judged by its structure (never by the file name).
 */
import { arrayField, isJsonObject, stringField, type JsonObject } from './jsonShape';
import type { TranscriptFormat } from './importTypes';
import { parseTranscriptText, type ParsedTranscript } from './parseTranscriptText';
import { TranscriptFormatError } from './importErrors';
import { isOpenHandsV1Event } from './openHandsEvents';
import { openHandsHistoryOf } from './openHands';
import { geminiContentList } from './geminiContents';
import { isGeminiLogRecord } from './geminiLog';
import { isQwenLogRecord } from './qwenLog';
import { isOpenCodeExport } from './openCode';
import { isCopilotCliEvent } from './copilotCli';
import { isPiEntry } from './piSession';
import { isAiderHistory } from './aiderChunks';

/** Record types of a Codex rollout. */
const CODEX_RECORD_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
/** Response item types an older Codex rollout writes bare; the message one also needs a role and content list. */
const CODEX_ITEM_TYPES = new Set(['function_call', 'function_call_output', 'reasoning', 'local_shell_call', 'custom_tool_call']);

/** Anthropic content block types that OpenAI messages never contain. */
const ANTHROPIC_BLOCK_TYPES = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'file']);

/** Detects the format of a transcript's text; throws `TranscriptFormatError` when it is none. */
export function detectTranscriptFormat(text: string): TranscriptFormat {
  const parsed = parseTranscriptText(text);
  const format = detectFormat(parsed);
  if (format === undefined) throw unrecognisedTranscript(parsed);
  return format;
}

/** The error for a text no importer fits, saying what it is instead when it is a file of an agent's that holds no conversation. */
export function unrecognisedTranscript(parsed: ParsedTranscript): TranscriptFormatError {
  if (parsed.kind === 'text') {
    return new TranscriptFormatError('the text is neither JSON nor JSON Lines, nor a chat history in Markdown that ctx reads');
  }
  if (parsed.kind === 'document' && isClineUiMessages(parsed.value)) {
    return new TranscriptFormatError(
      "this is Cline's ui_messages.json, what its chat showed; what the model saw is api_conversation_history.json, in the same task folder: replay that file",
    );
  }
  return new TranscriptFormatError('no known transcript structure found');
}

/** Cline's log of its chat view: a list of `{ts, type: say|ask, say|ask: kind, text}`. */
function isClineUiMessages(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  return value.every((m) => isJsonObject(m) && typeof m.ts === 'number' && (m.type === 'say' || m.type === 'ask'));
}

/** The format of an already parsed transcript, or undefined when no importer fits it. */
export function detectFormat(parsed: ParsedTranscript): TranscriptFormat | undefined {
  if (parsed.kind === 'text') return isAiderHistory(parsed.text) ? 'aider' : undefined;
  if (parsed.kind === 'lines') return detectLines(parsed.records.map((record) => record.value));
  const value = parsed.value;
  if (Array.isArray(value)) return detectLines(value) ?? (geminiContentList(value) ? 'gemini-cli' : detectMessageList(value));
  if (!isJsonObject(value)) return undefined;
  return detectDocument(value) ?? detectLines([value]);
}

/** JSON Lines, or a single line of them (a one-session OpenHands file parses as one document). */
function detectLines(records: readonly unknown[]): TranscriptFormat | undefined {
  const objects = records.filter(isJsonObject);
  // Gemini CLI's session log and Qwen Code's (whose records look like Claude Code's but carry Gemini parts).
  if (objects.some(isGeminiLogRecord) || objects.some(isQwenLogRecord)) return 'gemini-cli';
  if (objects.some(isClaudeCodeMessageRecord)) return 'claude-code';
  if (objects.some(isOpenHandsSession) || objects.some(isOpenHandsV1Event)) return 'openhands';
  if (objects.some(isCodexRecord)) return 'codex';
  if (objects.some(isCopilotCliEvent)) return 'copilot-cli';
  if (objects.some(isPiEntry)) return 'pi';
  return undefined;
}

function detectDocument(value: JsonObject): TranscriptFormat | undefined {
  if ((stringField(value, 'trajectory_format') ?? '').startsWith('mini-swe-agent')) return 'mini-swe-agent';
  if (isOpenCodeExport(value)) return 'opencode';
  if (listOf(value, 'requests', (r) => isJsonObject(r.message) && ('result' in r || 'response' in r))) return 'copilot-chat';
  if (listOf(value, 'prompts', (p) => typeof p.prompt === 'string' && Array.isArray(p.logs))) return 'copilot-chatreplay';
  if (listOf(value, 'messages', (m) => m.role === undefined && (m.type === 'user' || m.type === 'gemini'))) return 'gemini-cli';
  if (geminiContentList(value)) return 'gemini-cli';
  const history = arrayField(value, 'history');
  if (history !== undefined && history.some((entry) => isJsonObject(entry) && typeof entry.role === 'string')) return 'swe-agent';
  const messages = arrayField(value, 'messages');
  if (messages === undefined) return undefined;
  if (typeof value.system_prompt === 'string') return 'anthropic';
  return detectMessageList(messages);
}

function detectMessageList(messages: readonly unknown[]): TranscriptFormat | undefined {
  const chat = messages.filter((entry): entry is JsonObject => isJsonObject(entry) && typeof entry.role === 'string');
  if (chat.length === 0) return undefined;
  return chat.some(hasAnthropicBlocks) ? 'anthropic' : 'openai';
}

function hasAnthropicBlocks(message: JsonObject): boolean {
  const content = arrayField(message, 'content');
  return (
    content !== undefined && content.some((block) => isJsonObject(block) && ANTHROPIC_BLOCK_TYPES.has(stringField(block, 'type') ?? ''))
  );
}

/** True when the field is a list and some entry is an object passing the test. */
function listOf(value: JsonObject, key: string, test: (entry: JsonObject) => boolean): boolean {
  return (arrayField(value, key) ?? []).some((entry) => isJsonObject(entry) && test(entry));
}

/** Codex rollout records: `{type, payload}` with one of its record types, or an older bare response item. */
function isCodexRecord(record: JsonObject): boolean {
  const type = stringField(record, 'type') ?? '';
  if (isJsonObject(record.payload)) return CODEX_RECORD_TYPES.has(type);
  return CODEX_ITEM_TYPES.has(type) && !isJsonObject(record.message);
}

function isClaudeCodeMessageRecord(record: JsonObject): boolean {
  const type = stringField(record, 'type');
  return (type === 'user' || type === 'assistant') && isJsonObject(record.message);
}

function isOpenHandsSession(record: JsonObject): boolean {
  const history = openHandsHistoryOf(record);
  // The older resolver output stores [action, observation] pairs instead of single events.
  return history !== undefined && history.some((entry) => (Array.isArray(entry) ? entry.some(isOpenHandsEvent) : isOpenHandsEvent(entry)));
}

function isOpenHandsEvent(event: unknown): boolean {
  return isJsonObject(event) && ('action' in event || 'observation' in event || isOpenHandsV1Event(event));
}
