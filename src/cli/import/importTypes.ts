/**
 * The public shapes of transcript import: what the caller asks for and what comes back.
 */
import type { Message } from '../../engine/host/messages';

/** The transcript formats the importers understand. */
export type TranscriptFormat =
  | 'claude-code'
  | 'openai'
  | 'anthropic'
  | 'mini-swe-agent'
  | 'openhands'
  | 'swe-agent'
  | 'copilot-chat'
  | 'copilot-chatreplay'
  | 'codex'
  | 'gemini-cli'
  | 'opencode'
  | 'copilot-cli'
  | 'pi'
  | 'aider';

/** What to do with a line (or entry) that is not valid JSON or not a record. */
export type MalformedPolicy = 'continue' | 'stop';

/** How `importTranscript` reads a text. */
export interface ImportOptions {
  /** Skips detection and reads the text as this format. @default detected from the structure */
  readonly format?: TranscriptFormat;
  /** `continue` warns and goes on; `stop` throws a `MalformedTranscriptError`. @default 'continue' */
  readonly onMalformed?: MalformedPolicy;
  /**
   * Keeps an agent's own compaction summary (Claude Code's, Codex's, Copilot's history summary) as
   * an injected user message that starts with a marker naming it, such as
   * `CLAUDE_CODE_COMPACTION_MARKER`; false drops it (it would otherwise leak old facts into a replay).
   * @default true
   */
  readonly keepNativeCompaction?: boolean;
}

/** Something the importer noticed and did not hide: a skipped line, a dropped record, an orphan result. */
export interface ImportWarning {
  /** 1-based line of the source file, for line-based formats. */
  readonly line?: number;
  readonly reason: string;
}

/** Counts that show what an import kept and what it left out. */
export interface ImportStats {
  /** Source records read: JSONL records, list entries or events (blank lines are not records). */
  readonly records: number;
  /** Records that produced no message (metadata, UI events, demonstrations, malformed lines). */
  readonly skipped: number;
  /** `skipped` broken down by the kind of record, e.g. `progress` or `malformed`. */
  readonly skippedByKind: Readonly<Record<string, number>>;
  /** Thinking blocks dropped: they are not model context here. */
  readonly thinkingBlocks: number;
  readonly toolCalls: number;
  /** Results paired with an earlier call. */
  readonly toolResults: number;
  /** Results with no earlier call of that id; they are kept as user text instead. */
  readonly unpairedResults: number;
  /** Calls that never got a result (typically the last action of a session). */
  readonly unansweredCalls: number;
  /** Media the model saw (images, audio, binary documents), kept as a placeholder such as `[image]`. */
  readonly placeholders: number;
  /** Text blocks marked injected: context a tool or an agent added, kept as data. */
  readonly injectedBlocks: number;
}

/** One conversation of a transcript: a file can hold several (OpenHands) or a subagent's (Claude Code). */
export interface ImportedSession {
  /** From the source: a session id, an instance id or an agent id. */
  readonly id: string;
  /** True for a Claude Code subagent conversation. */
  readonly sidechain: boolean;
  readonly messages: Message[];
}

/** A transcript in the engine's conversation model, with what was noticed on the way. */
export interface ImportResult {
  readonly format: TranscriptFormat;
  /** The first session's messages: the main conversation, or the first task of a multi-session file. */
  readonly messages: Message[];
  /** Every conversation in the file, in file order; `sessions[0].messages` is `messages`. */
  readonly sessions: readonly ImportedSession[];
  readonly warnings: readonly ImportWarning[];
  readonly stats: ImportStats;
}
