/**
 * Small interfaces the host implements. Each is shaped like what VS Code or node already gives,
 * so the adapters stay thin.
 */

/** Encodings the token counter knows. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/**
 * Exact token counting. Building an encoder is expensive (hundreds of milliseconds), so a
 * tokenizer may not be ready at first; the engine estimates until it is.
 */
export interface Tokenizer {
  readonly encoding: EncodingName;
  /** False until the encoder is built. */
  readonly ready: boolean;
  /** Starts building the encoder if it is not built yet; resolves once counting is exact. */
  whenReady(): Promise<void>;
  /** Exact counts, one per text, in order. Waits for the encoder if it is not ready. */
  countMany(texts: readonly string[]): Promise<number[]>;
}

/** What a folder entry is. A link is never followed out of the store. */
export type StoreEntryKind = 'file' | 'folder' | 'link' | 'other';

/** An entry directly under a folder of the store. */
export interface StoreEntry {
  readonly name: string;
  readonly kind: StoreEntryKind;
}

/**
 * Session storage, addressed by '/'-separated paths relative to the store's root.
 * Writes are atomic and durable; appends add whole lines to an append-only file.
 */
export interface Store {
  /** Replaces the file atomically: a crash leaves either the old or the new content. */
  write(path: string, content: string): Promise<void>;
  /**
   * Appends lines (each gets a trailing newline) to an append-only file, creating it if needed,
   * in one write: a failure leaves the file as it was, never half a line. A file has one writer
   * at a time (see WriterLock); a writer calls `repairTail` before its first append.
   */
  append(path: string, lines: readonly string[]): Promise<void>;
  /**
   * Moves a last line that has no newline (a write that stopped half way: a crash, a full disk)
   * to a side file next to the file, byte for byte, so the next append starts on a line of its
   * own. Returns the side file's path, or undefined when the file was whole (or absent).
   */
  repairTail(path: string): Promise<string | undefined>;
  /** The file's content, or undefined when it does not exist. */
  read(path: string): Promise<string | undefined>;
  /**
   * `length` bytes of the file from byte `start` (fewer where the file ends), as UTF-8 text, or undefined when the file
   * does not exist: how a line of an append-only file whose place is known is read back without reading the whole file.
   */
  readRange(path: string, start: number, length: number): Promise<string | undefined>;
  /** Names of the entries directly under a folder; empty when the folder does not exist. */
  list(folder: string): Promise<string[]>;
  /** The entries directly under a folder with their kinds; empty when the folder does not exist. */
  entries(folder: string): Promise<StoreEntry[]>;
  /** What is at a path (a link is reported as a link, not followed), or undefined when nothing is. */
  kindOf(path: string): Promise<StoreEntryKind | undefined>;
  /** Moves a file, keeping its bytes exactly; replaces the target when it exists. */
  rename(from: string, to: string): Promise<void>;
  /** Creates the file only when nothing is at the path yet; false when something is. */
  createExclusive(path: string, content: string): Promise<boolean>;
  /** Removes a file or a folder with everything in it; missing paths are ignored. */
  remove(path: string): Promise<void>;
  /** Where a path lives, for showing to people and linking (a file system path or a URI). */
  locate(path: string): string;
}

/** Shaped like VS Code's `LogOutputChannel`, so one satisfies it as it is. */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(error: string | Error, ...args: unknown[]): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * Read access to the user's files, so tier 2 can check that what a tool wrote is really on disk
 * before it drops the copy from the context.
 */
export interface WorkspaceFiles {
  /** The file's text, or undefined when it does not exist or cannot be read. */
  readText(path: string): Promise<string | undefined>;
}

/** A file a caller wrote a tool result to, as read: its text, or in plain words why it was not read. */
export type CallerFileRead = { readonly text: string } | { readonly problem: string };

/**
 * Read access to the files a caller wrote its large tool results to (Copilot's agent writes results above 8 KB to a
 * file and sends the model a note naming it), so the session's archive can keep their content. A result's text can
 * name any file, so the host reads only the file the caller itself wrote for that call (for Copilot: its own
 * resources folder, the call's folder), never through a link, and bounded.
 */
export interface CallerFiles {
  /** The file the caller wrote the result of call `callId` to. */
  readResultFile(path: string, callId: string): Promise<CallerFileRead>;
}

/** One instruction file as the host read it, front matter and all. */
export interface InstructionFileText {
  /** How the host names the file: workspace-relative, e.g. `AGENTS.md` or `.github/instructions/tests.instructions.md`. */
  readonly path: string;
  readonly text: string;
}

/**
 * The workspace's instruction files (`.github/copilot-instructions.md`, `AGENTS.md`,
 * `.github/instructions/*.instructions.md`), which the ledger keeps verbatim so they survive every checkpoint.
 */
export interface InstructionFiles {
  /** Every instruction file found, in a stable order; none when there are none or the host does not allow reading them. */
  read(): Promise<readonly InstructionFileText[]>;
}

/** For hosts that have no workspace instructions, or may not read them. */
export const noInstructionFiles: InstructionFiles = { read: () => Promise.resolve([]) };
