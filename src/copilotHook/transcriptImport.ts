/**
 * Takes the transcripts ctx's PreCompact hook copied into the inbox (`copilot-transcripts/<session>.jsonl` in ctx's
 * storage) into ctx sessions: one ctx session per Copilot session, its archive holding every message of the
 * transcript (the offloads, the ledger and search follow as for any session). What was taken is remembered per
 * transcript in `copilot-transcripts/imported.json`: its line count, where its whole lines end and its first bytes,
 * so a later copy of the same transcript (Copilot only appends to it) is read only from there (`transcriptTail.ts`),
 * and a copy that did not grow costs two small reads, whatever its size.
 */
import type { ContextSession } from '../engine/host/session';
import type { CallerFileRead, Logger, Store } from '../engine/host/ports';
import { type Message, toolResultBlock } from '../engine/host/messages';
import { readCopilotTranscript, RESULT_NOT_KEPT } from './copilotTranscript';
import { readNewLines, type ReadMark } from './transcriptTail';

/** The inbox folder in ctx's storage, where the hook script copies transcripts. */
export const INBOX_FOLDER = 'copilot-transcripts';
const PROGRESS_FILE = `${INBOX_FOLDER}/imported.json`;
const PROGRESS_SCHEMA = 1;

/** What the import needs of the session registry. */
export interface ImportSessions {
  readonly store: Store;
  create(): Promise<ContextSession>;
  get(id: string): Promise<ContextSession | undefined>;
}

/**
 * A result Copilot wrote to a file (see `copilotResultFiles.ts`), read: undefined when it wrote none. The session id
 * is the transcript's file name without `.jsonl`.
 */
export type CopilotResultReader = (sessionId: string, callId: string) => Promise<CallerFileRead | undefined>;

/**
 * One transcript taken in: the ctx session it went to, how many of its lines are in it, and (since the import reads
 * only what was added) where those lines end and the calls they left unanswered. A record without `mark` (an
 * older ctx's) is read from the start once.
 */
interface Progress {
  readonly sessionId: string;
  readonly lines: number;
  readonly mark?: ReadMark;
  readonly openCalls?: Readonly<Record<string, string>>;
}

interface ProgressFile {
  readonly schemaVersion: number;
  readonly transcripts: Readonly<Record<string, Progress>>;
}

/** What one import did. */
export interface ImportReport {
  /** Messages added, by transcript file name. */
  readonly added: Readonly<Record<string, number>>;
  readonly problems: readonly string[];
}

export class CopilotTranscriptImport {
  /** One import at a time: the tool and the folder watcher may both ask. */
  private running: Promise<ImportReport> = Promise.resolve({ added: {}, problems: [] });
  constructor(
    private readonly sessions: ImportSessions,
    private readonly logger: Logger,
    private readonly results?: CopilotResultReader,
  ) {}

  /** Takes in what is new in the inbox. */
  importPending(): Promise<ImportReport> {
    this.running = this.running.then(
      () => this.run(),
      () => this.run(),
    );
    return this.running;
  }

  /** The ctx sessions that hold Copilot transcripts. */
  async sessionIds(): Promise<string[]> {
    return Object.values((await this.readProgress()).transcripts).map((p) => p.sessionId);
  }

  /** Never throws: a transcript or an inbox that cannot be read is a problem in the report (and the log). */
  private async run(): Promise<ImportReport> {
    const added: Record<string, number> = {};
    const problems: string[] = [];
    try {
      const names = (await this.sessions.store.list(INBOX_FOLDER)).filter((n) => n.endsWith('.jsonl')).sort();
      const progress = { ...(await this.readProgress()).transcripts };
      for (const name of names) {
        try {
          const before = progress[name];
          const count = await this.importOne(name, progress);
          if (count > 0) added[name] = count;
          if (progress[name] === before) continue;
          // Written after each transcript: what one took in is never taken in again because another failed.
          const file: ProgressFile = { schemaVersion: PROGRESS_SCHEMA, transcripts: progress };
          await this.sessions.store.write(PROGRESS_FILE, `${JSON.stringify(file, null, 1)}\n`);
        } catch (e) {
          problems.push(`${name}: ${errorWords(e)}`);
        }
      }
    } catch (e) {
      problems.push(`in ${INBOX_FOLDER}: ${errorWords(e)}`);
    }
    if (Object.keys(added).length > 0) {
      const counts = Object.entries(added).map(([n, c]) => `${c} message(s) of ${n}`);
      this.logger.info(`Archived Copilot's history: ${counts.join(', ')}`);
    }
    problems.forEach((p) => this.logger.warn(`Could not archive Copilot's transcript ${p}`));
    return { added, problems };
  }

  /**
   * Adds the transcript's new lines to its session (created on first sight, or when the copy is another transcript
   * than the one taken, or its session is gone) and records how far it was read; returns how many messages.
   */
  private async importOne(name: string, progress: Record<string, Progress>): Promise<number> {
    const known = progress[name];
    const existing = known ? await this.sessions.get(known.sessionId) : undefined;
    const added = await readNewLines(this.sessions.store, `${INBOX_FOLDER}/${name}`, existing ? known?.mark : undefined);
    const continues = existing && known && !added.restarted;
    if (continues && added.text === '') return 0;
    const read = readCopilotTranscript(added.text, continues ? { line: known.lines, openCalls: known.openCalls ?? {} } : undefined);
    // A record of an older ctx has no mark, only a count of lines from the start: those lines are in its session.
    const counted = existing && known && known.mark === undefined && known.lines <= read.lines ? known.lines : undefined;
    const session = existing && (continues || counted !== undefined) ? existing : await this.sessions.create();
    const fresh = read.messages.filter((m) => m.line >= (counted ?? 0)).map((m) => m.message);
    const messages = await this.withWrittenResults(name.replace(/\.jsonl$/, ''), fresh);
    if (messages.length > 0) {
      await session.add(messages);
      await session.save();
    }
    progress[name] = { sessionId: session.id, lines: read.lines, mark: added.mark, openCalls: read.openCalls };
    if (read.unreadable > 0) this.logger.warn(`${read.unreadable} unreadable line(s) in Copilot's transcript ${name} were left out`);
    return messages.length;
  }

  /** Puts the results Copilot wrote to files in place of the notes saying the transcript keeps none. */
  private async withWrittenResults(sessionId: string, messages: readonly Message[]): Promise<Message[]> {
    const results = this.results;
    if (!results) return [...messages];
    return Promise.all(
      messages.map(async (m) => {
        const [block] = m.blocks;
        if (m.role !== 'tool' || block?.type !== 'toolResult' || block.content !== RESULT_NOT_KEPT) return m;
        const read = await results(sessionId, block.callId);
        if (read === undefined) return m;
        if ('problem' in read) {
          this.logger.warn(`The result of ${block.toolName ?? 'a tool'} that Copilot wrote to a file is not archived: ${read.problem}`);
          return m;
        }
        return { ...m, blocks: [toolResultBlock(block.callId, read.text, false, block.toolName)] };
      }),
    );
  }

  private async readProgress(): Promise<ProgressFile> {
    const text = await this.sessions.store.read(PROGRESS_FILE);
    const empty: ProgressFile = { schemaVersion: PROGRESS_SCHEMA, transcripts: {} };
    if (text === undefined) return empty;
    try {
      const value: unknown = JSON.parse(text);
      return isProgressFile(value) ? value : empty;
    } catch {
      return empty;
    }
  }
}

function isProgressFile(value: unknown): value is ProgressFile {
  if (typeof value !== 'object' || value === null) return false;
  const { schemaVersion, transcripts } = value as { schemaVersion?: unknown; transcripts?: unknown };
  if (schemaVersion !== PROGRESS_SCHEMA || typeof transcripts !== 'object' || transcripts === null) return false;
  return Object.values(transcripts).every(
    (p: unknown) =>
      typeof p === 'object' && p !== null && typeof (p as Progress).sessionId === 'string' && typeof (p as Progress).lines === 'number',
  );
}

function errorWords(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
