/**
 * A state saved as a base plus a journal of changes: each save appends one line with what changed
 * since the last save (found by identity, see `jsonDiff`), so the bytes written follow the size of
 * the changes, not of the state. When the journal outgrows a multiple of the base, the next save
 * writes a new base atomically and starts a new journal. Loading reads the base and replays the
 * journal's whole lines; a torn last line (a crash mid-save) is ignored and said so.
 */
import { systemClock, type Clock, type Store } from '../ports';
import { diffJson, applyDiff, DiffMismatchError } from './jsonDiff';
import { BASE_FORMAT, JOURNAL_SCHEMA, readBase, readRecord, recordSchema, type BaseFile, type JournalRecord } from './journalFormat';
import { sideFilePath } from './sideFile';

/** The two files of a journaled state. */
export interface JournalPaths {
  /** The whole state, written atomically, e.g. `sessions/<id>/state.json`. */
  readonly base: string;
  /** The changes since the base, one JSON line per save, e.g. `sessions/<id>/state.journal.jsonl`. */
  readonly journal: string;
}

/** What the caller's state type makes of a JSON value read back. */
export type StateReading<T> =
  | { readonly kind: 'state'; readonly state: T }
  | { readonly kind: 'newer'; readonly schema: number }
  | { readonly kind: 'unreadable'; readonly reason: string };

export interface StateJournalOptions<T> {
  readonly store: Store;
  readonly paths: JournalPaths;
  /** Checks a JSON value read back and completes it (defaults for later fields); never throws. */
  readonly read: (value: unknown) => StateReading<T>;
  /** @default systemClock */
  readonly clock?: Clock;
  /** A new base is written when the journal holds more than this many times the base's bytes. @default 2 */
  readonly compactRatio?: number;
  /** …and at least this many bytes. @default 65536 */
  readonly minCompactBytes?: number;
  /** Load without moving anything: for listings and searches that only look. @default false */
  readonly readOnly?: boolean;
}

/** Defaults: compacting at twice the base keeps loading fast and base writes at most half of all bytes. */
export const DEFAULT_COMPACT_RATIO = 2;
export const DEFAULT_MIN_COMPACT_BYTES = 64 * 1024;

/** What loading found. */
export type JournalLoad<T extends object> =
  | { readonly kind: 'missing' }
  | {
      readonly kind: 'loaded';
      readonly state: T;
      readonly journal: StateJournal<T>;
      /** Journal lines replayed onto the base. */
      readonly replayed: number;
      /** What was ignored or set aside, in plain words (a torn last line, lines that did not fit). */
      readonly notes: readonly string[];
    }
  | { readonly kind: 'unreadable'; readonly file: 'base' | 'journal'; readonly reason: string }
  | { readonly kind: 'newer'; readonly file: 'base' | 'journal'; readonly schema: number };

/** What one save wrote. */
export interface SaveResult {
  readonly kind: 'unchanged' | 'record' | 'base';
  readonly bytes: number;
}

/** Bytes and writes since the journal was opened. */
export interface JournalFigures {
  readonly saves: number;
  readonly records: number;
  readonly bases: number;
  readonly bytesWritten: number;
}

export class StateJournal<T extends object> {
  private saved: T | undefined;
  private generation = 0;
  private n = 0;
  private baseBytes = 0;
  private journalBytes = 0;
  private needsBase = true;
  /** False while the journal file may end in a torn line left by an earlier process. */
  private tailChecked = false;
  private queue: Promise<unknown> = Promise.resolve();
  private counts = { saves: 0, records: 0, bases: 0, bytesWritten: 0 };
  private readonly clock: Clock;
  private readonly compactRatio: number;
  private readonly minCompactBytes: number;

  private constructor(private readonly options: StateJournalOptions<T>) {
    this.clock = options.clock ?? systemClock;
    this.compactRatio = options.compactRatio ?? DEFAULT_COMPACT_RATIO;
    this.minCompactBytes = options.minCompactBytes ?? DEFAULT_MIN_COMPACT_BYTES;
  }

  /** A journal for a state that has no files yet: the first save writes the base. */
  static create<T extends object>(options: StateJournalOptions<T>): StateJournal<T> {
    return new StateJournal(options);
  }

  /** Loads the base and replays the journal. Never throws for what the files hold; the store's errors pass through. */
  static async load<T extends object>(options: StateJournalOptions<T>): Promise<JournalLoad<T>> {
    const { store, paths } = options;
    const [baseText, journalText] = await Promise.all([store.read(paths.base), store.read(paths.journal)]);
    if (baseText === undefined) {
      if (journalText === undefined || journalText.trim() === '') return { kind: 'missing' };
      return { kind: 'unreadable', file: 'base', reason: 'the base state file is missing while its journal is there' };
    }
    const base = readBase(baseText);
    if (base.kind === 'newer' || base.kind === 'unreadable') return { ...base, file: 'base' };
    const generation = base.kind === 'base' ? base.generation : 0;
    const journal = new StateJournal(options);
    const replay = replayJournal(base.state, journalText ?? '', generation);
    if (replay.kind === 'newer') return { kind: 'newer', file: 'journal', schema: replay.schema };
    let reading = options.read(replay.state);
    const notes = [...replay.notes];
    let setAside = replay.dropped > 0;
    if (reading.kind !== 'state' && replay.replayed > 0) {
      // The changes do not make a valid state: the base alone still is one, and the journal is kept aside.
      reading = options.read(readBaseState(baseText));
      notes.push(`the ${replay.replayed} journal lines did not make a valid state (${describeReading(reading)}); the state is the base's`);
      setAside = true;
    }
    if (reading.kind === 'newer') return { kind: 'newer', file: 'base', schema: reading.schema };
    if (reading.kind === 'unreadable') return { kind: 'unreadable', file: 'base', reason: reading.reason };
    if (setAside && !options.readOnly) notes.push(`the journal was kept as ${await journal.moveAside(paths.journal)}`);
    journal.adopt(reading.state, generation, Buffer.byteLength(baseText, 'utf8'), replay.bytes, replay.n, base.kind === 'bare' || setAside);
    return { kind: 'loaded', state: reading.state, journal, replayed: replay.replayed, notes };
  }

  /** Bytes and writes so far. */
  get figures(): JournalFigures {
    return { ...this.counts };
  }

  /** Saves the state: one journal line with what changed, or a new base when the journal has grown too large. */
  save(state: T): Promise<SaveResult> {
    const run = this.queue.then(() => this.saveNow(state, false));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Writes a new base now and starts a new journal. */
  compact(state: T): Promise<SaveResult> {
    const run = this.queue.then(() => this.saveNow(state, true));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async saveNow(state: T, forceBase: boolean): Promise<SaveResult> {
    this.counts.saves++;
    if (!forceBase && state === this.saved) return { kind: 'unchanged', bytes: 0 };
    if (forceBase || this.needsBase || this.saved === undefined || this.journalBytes > this.compactAt()) return this.writeBase(state);
    const ops = diffJson(this.saved, state);
    if (ops.length === 0) {
      this.saved = state;
      return { kind: 'unchanged', bytes: 0 };
    }
    const record: JournalRecord = { schema: recordSchema(ops), generation: this.generation, n: this.n + 1, ops };
    const line = JSON.stringify(record);
    try {
      if (!this.tailChecked) await this.options.store.repairTail(this.options.paths.journal);
      this.tailChecked = true;
      await this.options.store.append(this.options.paths.journal, [line]);
    } catch (e) {
      // Whether any of the line reached the disk is unknown: the next save writes a whole base.
      this.needsBase = true;
      throw e;
    }
    const bytes = Buffer.byteLength(line, 'utf8') + 1;
    this.n++;
    this.journalBytes += bytes;
    this.saved = state;
    this.counts.records++;
    this.counts.bytesWritten += bytes;
    return { kind: 'record', bytes };
  }

  private async writeBase(state: T): Promise<SaveResult> {
    const generation = this.generation + 1;
    const base: BaseFile = { format: BASE_FORMAT, schema: JOURNAL_SCHEMA, generation, savedAt: this.clock.now(), state };
    const text = JSON.stringify(base);
    await this.options.store.write(this.options.paths.base, text);
    const bytes = Buffer.byteLength(text, 'utf8');
    this.adopt(state, generation, bytes, 0, 0, false);
    this.counts.bases++;
    this.counts.bytesWritten += bytes;
    // Lines of the old generation are skipped when loading; removing them saves space, and a
    // torn line of theirs is checked for before the first append all the same.
    await this.options.store.remove(this.options.paths.journal).catch(() => undefined);
    this.tailChecked = false;
    return { kind: 'base', bytes };
  }

  private adopt(state: T, generation: number, baseBytes: number, journalBytes: number, n: number, needsBase: boolean): void {
    this.saved = state;
    this.generation = generation;
    this.baseBytes = baseBytes;
    this.journalBytes = journalBytes;
    this.n = n;
    this.needsBase = needsBase;
  }

  private compactAt(): number {
    return Math.max(this.minCompactBytes, this.compactRatio * this.baseBytes);
  }

  private async moveAside(path: string): Promise<string> {
    const aside = sideFilePath(path, 'unreadable', this.clock.now());
    await this.options.store.rename(path, aside);
    return aside;
  }
}

interface Replay {
  readonly kind: 'replayed';
  readonly state: unknown;
  readonly replayed: number;
  /** Lines of this generation that were not applied (from the first one that could not be). */
  readonly dropped: number;
  /** The last record number applied. */
  readonly n: number;
  /** Bytes of this generation's applied lines. */
  readonly bytes: number;
  readonly notes: readonly string[];
}

/** Applies the journal's lines of this generation to the base's state, in order, up to the first that does not fit. */
function replayJournal(baseState: unknown, text: string, generation: number): Replay | { kind: 'newer'; schema: number } {
  let state = baseState;
  const notes: string[] = [];
  let replayed = 0;
  let n = 0;
  let bytes = 0;
  const lines = text.split('\n');
  const torn = lines.pop() ?? '';
  if (torn.trim() !== '') notes.push(`the journal's last line was cut short (a save interrupted) and was ignored`);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const reading = readRecord(lines[i]);
    if (reading.kind === 'newer') return { kind: 'newer', schema: reading.schema };
    if (reading.kind === 'record' && reading.record.generation !== generation) continue;
    const problem =
      reading.kind === 'unreadable'
        ? reading.reason
        : applyProblem(reading.record, n, () => (state = applyDiff(state, reading.record.ops)));
    if (problem !== undefined) {
      const dropped = lines.slice(i).filter((l) => l.trim() !== '').length;
      notes.push(`journal line ${i + 1} could not be applied (${problem}); it and the ${dropped - 1} after it were left out`);
      return { kind: 'replayed', state, replayed, dropped, n, bytes, notes };
    }
    replayed++;
    n++;
    bytes += Buffer.byteLength(lines[i], 'utf8') + 1;
  }
  return { kind: 'replayed', state, replayed, dropped: 0, n, bytes, notes };
}

/** Applies a record that must follow record `n`; the reason when it cannot. */
function applyProblem(record: JournalRecord, n: number, apply: () => void): string | undefined {
  if (record.n !== n + 1) return `it is change ${record.n} where change ${n + 1} was due`;
  try {
    apply();
    return undefined;
  } catch (e) {
    if (e instanceof DiffMismatchError) return e.message;
    throw e;
  }
}

function readBaseState(text: string): unknown {
  const base = readBase(text);
  return base.kind === 'base' || base.kind === 'bare' ? base.state : undefined;
}

function describeReading<T>(reading: StateReading<T>): string {
  return reading.kind === 'unreadable' ? reading.reason : reading.kind === 'newer' ? `schema ${reading.schema}` : 'valid';
}
