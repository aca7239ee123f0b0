/**
 * Saves, lists, reads and removes a session's snapshots, one JSON file each in
 * `sessions/<id>/snapshots/`. Writes are atomic (the Store's promise); anything read back goes
 * through `isSnapshot`, so a corrupt or foreign file is listed as unreadable instead of failing.
 */
import type { Clock, Store } from '../ports';
import { SCHEMA_VERSION, isRecord } from '../schema';
import { sessionPaths } from '../model/sessionPaths';
import { fileTimestamp } from '../text/sanitize';
import { isSnapshot, type Snapshot, type SnapshotContent, type SnapshotReason, type SnapshotSummary } from './snapshot';

/** What `create` needs: the content is exactly what the model sees now. */
export interface CreateSnapshotRequest {
  /** Shown to people; a numbered default such as "Snapshot 3 · manual" when absent or blank. */
  readonly name?: string;
  readonly reason: SnapshotReason;
  readonly content: SnapshotContent;
  /** Tokens of the context now. */
  readonly tokens: number;
}

/** Thrown when a snapshot cannot be saved or removed; `reason` says why in plain words. */
export class SnapshotError extends Error {
  constructor(
    message: string,
    readonly reason: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/** How each reason reads in a default name. */
const REASON_LABELS: Readonly<Record<SnapshotReason, string>> = {
  manual: 'manual',
  'before-checkpoint': 'before checkpoint',
  auto: 'auto',
  critical: 'critical',
  'before-restore': 'before restore',
};

/** Ids are `snap-<UTC time to the millisecond>-<running number>`: sortable, unique per session. */
const ID_PATTERN = /^snap-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{3})-(\d+)$/;
/** Digits the running number is padded to, so ids of the same millisecond still sort as text. */
const NUMBER_DIGITS = 4;
const FILE_SUFFIX = '.json';

/** Operating-system error codes a person can act on, said in plain words. */
const PLAIN_REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EACCES: 'permission was denied',
  EPERM: 'permission was denied',
  EMFILE: 'too many files are open',
};

interface Entry {
  readonly summary: SnapshotSummary;
  readonly snapshot?: Snapshot;
  /** The running number from the id, 0 when the file name is not an id. */
  readonly number: number;
}

function sortNewestFirst<T extends Omit<Entry, 'snapshot'>>(entries: T[]): T[] {
  return entries.sort((a, b) => b.summary.at - a.summary.at || b.number - a.number || (a.summary.id < b.summary.id ? 1 : -1));
}

/** The snapshots of one session. Creates made through one instance run one at a time. */
export class SnapshotStore {
  private readonly folder: string;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Summaries of the files already read, by file name. Snapshots never change once written, so
   * listing again (the tree and the report do, often) reads only files it has not seen.
   */
  private readonly known = new Map<string, Omit<Entry, 'snapshot'>>();

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly clock: Clock,
  ) {
    this.folder = sessionPaths(sessionId).snapshots;
  }

  /** Saves a snapshot of `content`. Throws a SnapshotError saying why when it cannot be written. */
  create(request: CreateSnapshotRequest): Promise<SnapshotSummary> {
    const run = this.queue.then(() => this.createNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Every snapshot file, newest first; a file that cannot be read back is listed with `readable: false`. */
  async list(): Promise<SnapshotSummary[]> {
    const names = await this.fileNames('list');
    for (const name of [...this.known.keys()]) if (!names.includes(name)) this.known.delete(name);
    await Promise.all(
      names
        .filter((n) => !this.known.has(n))
        .map(async (n) => {
          const { summary, number } = this.parse(n, await this.store.read(this.pathOf(n)).catch(() => undefined));
          this.known.set(n, { summary, number });
        }),
    );
    return sortNewestFirst(names.flatMap((n) => this.known.get(n) ?? [])).map((e) => e.summary);
  }

  /** The snapshot with this id, or else the newest whose name matches case-insensitively. */
  async read(idOrName: string): Promise<Snapshot | undefined> {
    const key = idOrName.trim();
    if (isFileName(key)) {
      const direct = this.parse(`${key}${FILE_SUFFIX}`, await this.store.read(this.pathOf(`${key}${FILE_SUFFIX}`)).catch(() => undefined));
      if (direct.snapshot) return direct.snapshot;
    }
    const wanted = normalizeName(key);
    return (await this.scan()).find((e) => e.snapshot !== undefined && normalizeName(e.snapshot.name) === wanted)?.snapshot;
  }

  /** Removes a snapshot (or an unreadable file, by its listed id). False when there was none. */
  async remove(id: string): Promise<boolean> {
    const names = await this.fileNames('remove');
    const target = [`${id}${FILE_SUFFIX}`, id].find((n) => isFileName(n) && names.includes(n));
    if (target === undefined) return false;
    try {
      await this.store.remove(this.pathOf(target));
      this.known.delete(target);
    } catch (e) {
      const reason = plainReason(e);
      throw new SnapshotError(`Snapshot ${id} could not be removed: ${reason}.`, reason, e);
    }
    return true;
  }

  private async createNow(request: CreateSnapshotRequest): Promise<SnapshotSummary> {
    const names = await this.fileNames('save');
    const number = Math.max(0, ...names.map((n) => idNumber(stem(n)))) + 1;
    const at = this.clock.now();
    const id = `snap-${fileTimestamp(at)}-${String(number).padStart(NUMBER_DIGITS, '0')}`;
    const name = request.name?.trim() || `Snapshot ${number} · ${REASON_LABELS[request.reason]}`;
    const { content } = request;
    const snapshot: Snapshot = {
      schema: SCHEMA_VERSION,
      id,
      sessionId: this.sessionId,
      name,
      reason: request.reason,
      at,
      tokens: request.tokens,
      messageCount: content.active.length,
      checkpointCount: content.checkpoints.length,
      content,
    };
    const fileName = `${id}${FILE_SUFFIX}`;
    try {
      await this.store.write(this.pathOf(fileName), JSON.stringify(snapshot));
    } catch (e) {
      const reason = plainReason(e);
      throw new SnapshotError(`Snapshot "${name}" could not be saved: ${reason}.`, reason, e);
    }
    const summary = summaryOf(snapshot, this.pathOf(fileName));
    this.known.set(fileName, { summary, number });
    return summary;
  }

  /** Reads every file once, newest first. */
  private async scan(): Promise<Entry[]> {
    const names = await this.fileNames('list');
    const entries = await Promise.all(names.map(async (n) => this.parse(n, await this.store.read(this.pathOf(n)).catch(() => undefined))));
    return sortNewestFirst(entries);
  }

  private parse(fileName: string, text: string | undefined): Entry {
    const id = stem(fileName);
    const number = idNumber(id);
    const file = this.pathOf(fileName);
    const value = text === undefined ? undefined : parseJson(text);
    if (isSnapshot(value) && value.id === id && value.sessionId === this.sessionId) {
      return { summary: summaryOf(value, file), snapshot: value, number };
    }
    const summary: SnapshotSummary = {
      schema: isRecord(value) && typeof value.schema === 'number' ? value.schema : 0,
      id,
      sessionId: this.sessionId,
      name: fileName,
      reason: 'manual',
      at: idTime(id),
      tokens: 0,
      messageCount: 0,
      checkpointCount: 0,
      readable: false,
      file,
    };
    return { summary, number };
  }

  private async fileNames(operation: 'save' | 'list' | 'remove'): Promise<string[]> {
    try {
      return await this.store.list(this.folder);
    } catch (e) {
      const reason = plainReason(e);
      throw new SnapshotError(`The snapshots folder could not be read to ${operation} a snapshot: ${reason}.`, reason, e);
    }
  }

  private pathOf(fileName: string): string {
    return `${this.folder}/${fileName}`;
  }
}

function summaryOf(snapshot: Snapshot, file: string): SnapshotSummary {
  const { content: _content, ...rest } = snapshot;
  return { ...rest, readable: true, file };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const stem = (fileName: string): string => (fileName.endsWith(FILE_SUFFIX) ? fileName.slice(0, -FILE_SUFFIX.length) : fileName);
const normalizeName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();
/** A single file name: nothing that could reach outside the snapshots folder. */
const isFileName = (name: string): boolean => name !== '' && name !== '.' && name !== '..' && !/[/\\]/.test(name);

function idNumber(id: string): number {
  const m = ID_PATTERN.exec(id);
  return m ? Number(m[8]) : 0;
}

/** The creation time an id carries; 0 when the name is not an id. */
function idTime(id: string): number {
  const m = ID_PATTERN.exec(id);
  if (!m) return 0;
  const [y, mo, d, h, mi, s, ms] = m.slice(1, 8).map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

/** The system's reason, led by plain words when its error code is one a person can act on. */
function plainReason(error: unknown): string {
  let code: string | undefined;
  let message = String(error);
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e.cause, depth++) {
    if (typeof e.code === 'string') code ??= e.code;
    if (typeof e.message === 'string') message = e.message;
  }
  const plain = code === undefined ? undefined : PLAIN_REASONS[code];
  return plain === undefined ? message : `${plain} (${message})`;
}
