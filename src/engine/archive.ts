import type { Store } from './ports';
import { SCHEMA_VERSION, isMessage, isRecord } from './schema';
import type { Message } from './types';

/** One line of the archive: a message exactly as it entered the session. */
interface ArchiveLine {
  readonly v: number;
  readonly message: Message;
}

export interface ArchiveReadResult {
  readonly messages: Message[];
  /**
   * For each message, the 0-based position of its line among the archive's whole lines: what a
   * count of appended messages compares to, unreadable lines included.
   */
  readonly positions: number[];
  /** For each message, where its line starts in the file, in bytes (a salvaged line starts with its torn part). */
  readonly offsets: number[];
  /** For each message, its line's length in bytes, without the newline. */
  readonly lengths: number[];
  /** Bytes of the whole lines: where the next append starts once a torn last line is moved aside. */
  readonly wholeBytes: number;
  /** Whole lines (ending with a newline) that are not empty, readable or not. */
  readonly wholeLines: number;
  /** 1-based line numbers that could not be read back (corrupt or from an unknown schema). */
  readonly unreadableLines: number[];
  /**
   * 1-based line numbers where a torn write had a whole line appended onto it (what older
   * versions left after a full disk): the whole line's message was recovered, the torn part not.
   */
  readonly salvagedLines: number[];
  /** True when the last line has no newline: a write stopped half way and was not repaired yet. */
  readonly tornTail: boolean;
  /**
   * A message whose line is whole but for its newline (a write stopped at the very end). It is
   * not in `messages`: the next append moves the torn line aside, so it must be archived again.
   */
  readonly tornTailMessage?: Message;
}

export interface ArchiveOptions {
  /** Told when a torn last line was moved to a side file before an append (the side file's store path). */
  readonly onRepair?: (sideFile: string) => void;
}

/** Where a whole archive line starts; a torn line followed by a whole one holds it inside. */
const LINE_START = `{"v":`;
/** Starts tried when salvaging one line: enough for any real case, bounded for a hostile one. */
const MAX_SALVAGE_TRIES = 64;

/**
 * The full history of a session, append-only JSONL. Every message is appended here before any
 * tier changes the active context, so the archive is always the complete record (design §10's
 * dual storage: the active context is what the model sees, the archive is everything).
 *
 * Each append is one write of whole lines. Before the first append, and after any failed one, a
 * torn last line (a crash or a full disk) is moved to a side file, so a retry never lands on
 * half a line. Until an append succeeds again the archive knows it is incomplete.
 */
export class Archive {
  /** False until the tail was checked in this process, and again after a failed append. */
  private tailChecked = false;
  private failed = false;

  constructor(
    private readonly store: Store,
    readonly path: string,
    private readonly options: ArchiveOptions = {},
  ) {}

  /** False from a failed append until an append succeeds: some messages are not in the archive yet. */
  get complete(): boolean {
    return !this.failed;
  }

  /**
   * Appends the messages as whole lines in one write and returns each line's length in bytes (without its newline), so
   * a reader can find them again. Throws the store's error; the caller retries them later.
   */
  async append(messages: readonly Message[]): Promise<number[]> {
    if (messages.length === 0) return [];
    try {
      if (!this.tailChecked) {
        const sideFile = await this.store.repairTail(this.path);
        this.tailChecked = true;
        if (sideFile !== undefined) this.options.onRepair?.(sideFile);
      }
      const lines = messages.map((message) => JSON.stringify({ v: SCHEMA_VERSION, message } satisfies ArchiveLine));
      await this.store.append(this.path, lines);
      this.failed = false;
      return lines.map((line) => Buffer.byteLength(line, 'utf8'));
    } catch (e) {
      this.failed = true;
      this.tailChecked = false;
      throw e;
    }
  }

  async read(): Promise<ArchiveReadResult> {
    return parseArchive((await this.store.read(this.path)) ?? '');
  }

  /**
   * The message of the line that starts at byte `offset` and is `length` bytes long (without its newline), or
   * undefined when what stands there is not a whole readable line.
   */
  async readLine(offset: number, length: number): Promise<Message | undefined> {
    const text = await this.store.readRange(this.path, offset, length + 1);
    return text !== undefined && text.endsWith('\n') ? readArchiveLine(text.slice(0, -1)) : undefined;
  }

  /** The messages of consecutive lines that start at byte `offset` and take `bytes` bytes, newlines included, in order. */
  async readLines(offset: number, bytes: number): Promise<(Message | undefined)[]> {
    const text = await this.store.readRange(this.path, offset, bytes);
    if (text === undefined) return [];
    const lines = text.split('\n');
    lines.pop();
    return lines.map(readArchiveLine);
  }

  locate(): string {
    return this.store.locate(this.path);
  }
}

/** The message of one archive line: read as it is, or salvaged from after a torn part; undefined when neither works. */
export function readArchiveLine(line: string): Message | undefined {
  return line.trim() === '' ? undefined : (parseLine(line) ?? salvage(line));
}

/** Reads archive text: every message it holds, and the lines it could not read. */
export function parseArchive(text: string): ArchiveReadResult {
  const messages: Message[] = [];
  const positions: number[] = [];
  const offsets: number[] = [];
  const lengths: number[] = [];
  const unreadableLines: number[] = [];
  const salvagedLines: number[] = [];
  const tornTail = text.length > 0 && !text.endsWith('\n');
  const lines = text.split('\n');
  // The last piece is a torn line, or the nothing after the final newline.
  const torn = lines.pop();
  let wholeLines = 0;
  let offset = 0;
  lines.forEach((line, index) => {
    const length = Buffer.byteLength(line, 'utf8');
    const start = offset;
    offset += length + 1;
    if (line.trim() === '') return;
    const position = wholeLines++;
    const parsed = parseLine(line);
    const found = parsed ?? salvage(line);
    if (found) {
      messages.push(found);
      positions.push(position);
      offsets.push(start);
      lengths.push(length);
      if (!parsed) salvagedLines.push(index + 1);
    } else unreadableLines.push(index + 1);
  });
  const tornTailMessage = tornTail && torn !== undefined ? parseLine(torn) : undefined;
  return {
    messages,
    positions,
    offsets,
    lengths,
    wholeBytes: offset,
    wholeLines,
    unreadableLines,
    salvagedLines,
    tornTail,
    ...(tornTailMessage ? { tornTailMessage } : {}),
  };
}

function parseLine(line: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) && value.v === SCHEMA_VERSION && isMessage(value.message) ? value.message : undefined;
  } catch {
    return undefined;
  }
}

/** The message of a whole line that was appended onto a torn one, if the line ends with one. */
function salvage(line: string): Message | undefined {
  let from = line.indexOf(LINE_START, 1);
  for (let tries = 0; from !== -1 && tries < MAX_SALVAGE_TRIES; tries++) {
    const message = parseLine(line.slice(from));
    if (message) return message;
    from = line.indexOf(LINE_START, from + 1);
  }
  return undefined;
}
