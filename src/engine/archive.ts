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
  /** 1-based line numbers that could not be read back (corrupt or from an unknown schema). */
  readonly unreadableLines: number[];
}

/**
 * The full history of a session, append-only JSONL. Every message is appended here before any
 * tier changes the active context, so the archive is always the complete record (design §10's
 * dual storage: the active context is what the model sees, the archive is everything).
 */
export class Archive {
  constructor(
    private readonly store: Store,
    readonly path: string,
  ) {}

  async append(messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.store.append(
      this.path,
      messages.map((message) => JSON.stringify({ v: SCHEMA_VERSION, message } satisfies ArchiveLine)),
    );
  }

  async read(): Promise<ArchiveReadResult> {
    const text = (await this.store.read(this.path)) ?? '';
    const messages: Message[] = [];
    const unreadableLines: number[] = [];
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      const parsed = parseLine(line);
      if (parsed) messages.push(parsed);
      else unreadableLines.push(index + 1);
    });
    return { messages, unreadableLines };
  }

  locate(): string {
    return this.store.locate(this.path);
  }
}

function parseLine(line: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) && value.v === SCHEMA_VERSION && isMessage(value.message) ? value.message : undefined;
  } catch {
    return undefined;
  }
}
