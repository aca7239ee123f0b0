/**
 * The entry point: a transcript's text in, the engine's conversation model out.
 */
import { importAnthropic } from './anthropic';
import { importClaudeCode } from './claudeCode';
import { importCodexRollout } from './codexRollout';
import { importCopilotChat } from './copilotChat';
import { importCopilotChatReplay } from './copilotChatReplay';
import { detectFormat, unrecognisedTranscript } from './detect';
import { TranscriptFormatError } from './importErrors';
import { ImportSink } from './importSink';
import type { ImportOptions, ImportResult, TranscriptFormat } from './importTypes';
import { importGeminiLog } from './geminiLog';
import { geminiContentList, importGeminiContents } from './geminiContents';
import { importGeminiSession } from './geminiSession';
import { isJsonObject } from './jsonShape';
import { importMiniSweAgent } from './miniSweAgent';
import { importOpenAi } from './openAi';
import { importOpenHands } from './openHands';
import { importQwenLog, isQwenLogRecord } from './qwenLog';
import { parseTranscriptText, type ParsedTranscript, type SourceRecord } from './parseTranscriptText';
import { importSweAgent } from './sweAgent';
import { importOpenCode } from './openCode';
import { importCopilotCli } from './copilotCli';
import { importPiSession } from './piSession';
import { importAiderHistory } from './aiderHistory';

/**
 * Imports a transcript in any known format, detected from its structure unless `options.format`
 * says which. Throws `TranscriptFormatError` when the text is no known format, and
 * `MalformedTranscriptError` on the first unreadable line when `onMalformed` is `stop`.
 * Nothing is dropped silently: every skipped record is counted in `stats`, and warned about when
 * the model could have seen it.
 */
export function importTranscript(text: string, options: ImportOptions = {}): ImportResult {
  return importParsedTranscript(parseTranscriptText(text), options);
}

/** Imports a transcript already parsed (by `parseTranscriptText`, or as it streamed in); the same rules as `importTranscript`. */
export function importParsedTranscript(parsed: ParsedTranscript, options: ImportOptions = {}): ImportResult {
  const format = options.format ?? detectFormat(parsed);
  if (format === undefined) throw unrecognisedTranscript(parsed);
  const sink = new ImportSink(options.onMalformed ?? 'continue');
  const keepNativeCompaction = options.keepNativeCompaction ?? true;
  if (parsed.kind === 'lines') {
    for (const bad of parsed.malformed) {
      sink.countRecord();
      sink.malformed(bad.reason, bad.line);
    }
  }
  switch (format) {
    case 'claude-code':
      importClaudeCode(asRecords(parsed, format), sink, keepNativeCompaction);
      break;
    case 'openhands':
      importOpenHands(asRecords(parsed, format), sink, keepNativeCompaction);
      break;
    case 'openai':
      importOpenAi(asDocument(parsed, format), sink, keepNativeCompaction);
      break;
    case 'swe-agent':
      importSweAgent(asDocument(parsed, format), sink);
      break;
    case 'anthropic':
      importAnthropic(asDocument(parsed, format), sink, keepNativeCompaction);
      break;
    case 'mini-swe-agent':
      importMiniSweAgent(asDocument(parsed, format), sink);
      break;
    case 'copilot-chat':
      importCopilotChat(asDocument(parsed, format), sink, keepNativeCompaction);
      break;
    case 'copilot-chatreplay':
      importCopilotChatReplay(asDocument(parsed, format), sink);
      break;
    case 'codex':
      importCodexRollout(asRecords(parsed, format), sink, keepNativeCompaction);
      break;
    case 'gemini-cli':
      importGemini(parsed, sink);
      break;
    case 'opencode':
      importOpenCode(asDocument(parsed, format), sink, keepNativeCompaction);
      break;
    case 'copilot-cli':
      importCopilotCli(asRecords(parsed, format), sink);
      break;
    case 'pi':
      importPiSession(asRecords(parsed, format), sink, keepNativeCompaction);
      break;
    case 'aider':
      importAiderHistory(asText(parsed, format), sink);
      break;
  }
  return sink.finish(format);
}

/** Gemini CLI's session JSON, its newer session log (JSON Lines), Qwen Code's log, or a saved Gemini history. */
function importGemini(parsed: ParsedTranscript, sink: ImportSink): void {
  if (parsed.kind === 'document' && isJsonObject(parsed.value) && Array.isArray(parsed.value.messages)) {
    return importGeminiSession(parsed.value, sink);
  }
  const contents = parsed.kind === 'document' ? geminiContentList(parsed.value) : undefined;
  if (contents !== undefined) return importGeminiContents(contents, sink);
  const records = asRecords(parsed, 'gemini-cli');
  if (records.some((record) => isJsonObject(record.value) && isQwenLogRecord(record.value))) importQwenLog(records, sink);
  else importGeminiLog(records, sink);
}

/** Records of a line-based format; a one-line file parses as a document and is its only record. */
function asRecords(parsed: ParsedTranscript, format: TranscriptFormat): readonly SourceRecord[] {
  if (parsed.kind === 'text') throw new TranscriptFormatError(`a ${format} transcript is JSON Lines, but this text is not JSON`);
  if (parsed.kind === 'lines') return parsed.records;
  return Array.isArray(parsed.value) ? parsed.value.map((value) => ({ value })) : [{ line: 1, value: parsed.value }];
}

function asDocument(parsed: ParsedTranscript, format: TranscriptFormat): unknown {
  if (parsed.kind === 'document') return parsed.value;
  throw new TranscriptFormatError(
    `a ${format} transcript is one JSON document, but this text is ${parsed.kind === 'lines' ? 'JSON Lines' : 'not JSON'}`,
  );
}

/** The text of a format written as Markdown. */
function asText(parsed: ParsedTranscript, format: TranscriptFormat): string {
  if (parsed.kind === 'text') return parsed.text;
  throw new TranscriptFormatError(`a ${format} transcript is Markdown text, but this text is JSON`);
}
