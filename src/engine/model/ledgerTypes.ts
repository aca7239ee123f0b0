/**
 * The ledger: what is never summarized. The workspace's instructions, goals, locked decisions, the
 * session intent, every user message verbatim, and a record of what the tools did, built from the
 * tool calls themselves rather than from the model's memory. It is rendered into every request.
 */
import type { FactKind } from './fact';

/** Where a ledger entry came from. Tool results are never a source: outside content must not lock decisions. */
export type LedgerSource = 'user' | 'assistant' | 'command';

export type GoalStatus = 'active' | 'completed' | 'paused';

export interface Goal {
  readonly id: string;
  readonly text: string;
  readonly status: GoalStatus;
  readonly source: LedgerSource;
  readonly at: number;
  /** The message the marker was in, when it came from one. */
  readonly messageId?: string;
}

export interface Decision {
  readonly id: string;
  readonly text: string;
  /** Locked decisions are never dropped; every `[DECISION]` and `/decide` is locked. */
  readonly locked: boolean;
  readonly source: LedgerSource;
  readonly at: number;
  readonly messageId?: string;
}

export type ProgressStatus = 'completed' | 'in-progress' | 'pending';

/** A `[CHECKPOINT]` line: a step toward the goal and its status. */
export interface ProgressMark {
  readonly text: string;
  readonly status: ProgressStatus;
  readonly source: LedgerSource;
  readonly at: number;
}

export interface UserMessageEntry {
  readonly messageId: string;
  readonly at: number;
  /** The message verbatim; absent when it was too large and went to `file`. */
  readonly text?: string;
  /** Store path of the verbatim copy of a huge message. */
  readonly file?: string;
  /** The first lines of a huge message, shown with its path. */
  readonly preview?: string;
  readonly tokens: number;
}

export type FileAction = 'read' | 'created' | 'edited' | 'deleted';

export interface FileRecord {
  readonly path: string;
  /** Every action seen on the file, each once, in the order first seen. */
  readonly actions: readonly FileAction[];
  readonly lastAt: number;
  /** Id of the last call that touched it. */
  readonly lastCallId: string;
}

export interface CommandRecord {
  readonly callId: string;
  readonly command: string;
  /** Exit status when the result says it; undefined when unknown. */
  readonly exitCode?: number;
  /** False when the result was an error or the exit code was not 0. */
  readonly ok: boolean;
  readonly at: number;
  /** What a successful command printed: its first and last meaningful lines (see `outputGist`). */
  readonly output?: string;
  /** A search or a fetch a tool made (`ledger/callSubject.ts` `searchedFor`), not a command line: listed after the commands and cut before them. */
  readonly search?: true;
}

export interface ErrorRecord {
  readonly callId: string;
  readonly toolName: string;
  /** The first meaningful line of the error, shortened. */
  readonly summary: string;
  /** What the error was about: the command or the file path, when known. */
  readonly subject?: string;
  readonly at: number;
  /**
   * The keys of the calls that fix it (see `ledger/fixKeys.ts`), when they are not the subject's own
   * key: a failed read waits for a read or a write of its file, a failed line of commands for any of them.
   */
  readonly waitsOn?: readonly string[];
  /** True once a later call on the same subject succeeded. */
  readonly fixed: boolean;
  readonly fixedByCallId?: string;
  /**
   * What fixed it: the command that then worked, or '' when the fix was another kind of call (a
   * file written). Absent in records kept before ctx stored it; the command is then looked up
   * among the record's commands.
   */
  readonly fixedBy?: string;
}

export interface OffloadedEntry {
  readonly callId: string;
  readonly toolName: string;
  readonly file: string;
  readonly tokens: number;
  /** What the call was about (`ledger/callSubject.ts`): the command, the file, the pattern searched for. */
  readonly subject?: string;
}

/**
 * A fact the recall check put back: one a checkpoint's summary dropped and no search could find,
 * shown in the ledger under its own small token cap. The lowest-scored and oldest are dropped
 * first when the cap is reached; they stay in the archive.
 */
export interface LedgerFact {
  readonly kind: FactKind;
  /** What the recall check looks for (see `Fact.key`). */
  readonly key: string;
  /** The line shown, without its bullet; it holds the key. */
  readonly line: string;
  /** The message the fact was read from. */
  readonly messageId: string;
  /** 0 to 1, higher is more important. */
  readonly score: number;
  /** When it was put back. */
  readonly at: number;
}

/** Built deterministically from tool calls and their results. */
export interface ToolRecord {
  readonly files: readonly FileRecord[];
  readonly commands: readonly CommandRecord[];
  readonly errors: readonly ErrorRecord[];
  readonly offloaded: readonly OffloadedEntry[];
}

/** A workspace instruction file that applies to the session, kept verbatim. */
export interface InstructionEntry {
  /** The file as the host names it, e.g. `AGENTS.md` or `.github/instructions/tests.instructions.md`. */
  readonly path: string;
  /** The file's text after its front matter, verbatim (cut only past `MAX_INSTRUCTION_CHARS`, and then said so). */
  readonly text: string;
  /** The globs of its `applyTo` front matter when they name some files; absent when it applies to every file. */
  readonly applyTo?: readonly string[];
}

/** What can be pinned: a message (its text) or a tool result (its content as the model sees it). */
export type PinnedKind = 'message' | 'toolResult';

/**
 * An item of the context the user pinned: kept verbatim through every compression. While the item
 * is in the live context as it was pinned, the ledger does not repeat it; once a compression takes
 * or changes it, the ledger shows this copy.
 */
export interface PinnedEntry {
  /** The item's id in the context (see `engine/dashboard/itemIds.ts`). */
  readonly itemId: string;
  readonly kind: PinnedKind;
  /** The message that held the item. */
  readonly messageId: string;
  /** The tool call a pinned result answers. */
  readonly callId?: string;
  /** How the item is named in the ledger, e.g. `assistant message` or `read_file result`. */
  readonly label: string;
  /** The item's text, verbatim. */
  readonly text: string;
  readonly tokens: number;
  readonly at: number;
}

export interface Ledger {
  /**
   * The workspace's instruction files that apply, read again at every turn. Absent in ledgers stored
   * before instructions were kept, which read as none.
   */
  readonly instructions?: readonly InstructionEntry[];
  /** The first user request, verbatim. */
  readonly intent?: { readonly text: string; readonly messageId: string; readonly at: number };
  readonly goals: readonly Goal[];
  readonly decisions: readonly Decision[];
  readonly progress: readonly ProgressMark[];
  /** The latest `[NEXT]` line. */
  readonly nextStep?: { readonly text: string; readonly source: LedgerSource; readonly at: number };
  /** `[ARTIFACT]` lines, verbatim. */
  readonly artifacts: readonly string[];
  readonly userMessages: readonly UserMessageEntry[];
  readonly tools: ToolRecord;
  /** Facts the recall check put back (absent until it puts one back). */
  readonly facts?: readonly LedgerFact[];
  /** Items the user pinned, oldest first. Absent in ledgers stored before pinning existed, which read as none. */
  readonly pinned?: readonly PinnedEntry[];
}

export const EMPTY_LEDGER: Ledger = {
  goals: [],
  decisions: [],
  progress: [],
  artifacts: [],
  userMessages: [],
  tools: { files: [], commands: [], errors: [], offloaded: [] },
};
