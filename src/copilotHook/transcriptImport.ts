/**
 * Takes the transcripts ctx's PreCompact hook copied into the inbox (`copilot-transcripts/<session>.jsonl` in ctx's
 * storage) into ctx sessions: one ctx session per Copilot session, its archive holding every message of the
 * transcript (the offloads, the ledger and search follow as for any session). What was taken is remembered per
 * transcript by its line count in `copilot-transcripts/imported.json`, so a later copy of the same transcript (Copilot
 * only appends to it) adds only its new lines.
 */
import { createHash } from 'node:crypto';
import type { ContextSession } from '../engine/host/session';
import type { CallerFileRead, Logger, Store } from '../engine/host/ports';
import { type Message, toolResultBlock } from '../engine/host/messages';
import { readCopilotTranscript, RESULT_NOT_KEPT } from './copilotTranscript';

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

/** One transcript taken in: the ctx session it went to and how many of its lines are in it. */
interface Progress {
  readonly sessionId: string;
  readonly lines: number;
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
  /** A digest of each transcript as last read: one that did not change since is not parsed again before every search. */
  private readonly readDigests = new Map<string, string>();

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
          const count = await this.importOne(name, progress);
          if (count === 0) continue;
          added[name] = count;
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

  /** Adds the transcript's new lines to its session (created on first sight); returns how many messages. */
  private async importOne(name: string, progress: Record<string, Progress>): Promise<number> {
    const text = (await this.sessions.store.read(`${INBOX_FOLDER}/${name}`)) ?? '';
    const known = progress[name];
    const digest = createHash('sha1').update(text).digest('hex');
    if (known && this.readDigests.get(name) === digest) return 0;
    const read = readCopilotTranscript(text);
    // A transcript shorter than what was taken is another one under the same name: it starts a session of its own.
    const from = known && known.lines <= read.lines ? known.lines : 0;
    if (read.lines === from) {
      this.readDigests.set(name, digest);
      return 0;
    }
    const fresh = read.messages.filter((m) => m.line >= from).map((m) => m.message);
    const existing = known && from > 0 ? await this.sessions.get(known.sessionId) : undefined;
    const session = existing ?? (await this.sessions.create());
    // Taken again from its first line when its session is gone.
    const taken = existing ? fresh : read.messages.map((m) => m.message);
    const messages = await this.withWrittenResults(name.replace(/\.jsonl$/, ''), taken);
    if (messages.length > 0) {
      await session.add(messages);
      await session.save();
    }
    progress[name] = { sessionId: session.id, lines: read.lines };
    this.readDigests.set(name, digest);
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
