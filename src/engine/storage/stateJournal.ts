/**
 * A state saved as a base plus a journal of changes: each save appends one line with what changed
 * since the last save (found by identity, see `jsonDiff`), so the bytes written follow the size of
 * the changes, not of the state. When the journal outgrows a multiple of the base, the next save
 * writes a new base atomically and starts a new journal. Loading reads the base and replays the
 * journal's whole lines; a torn last line (a crash mid-save) is ignored and said so.
 */
import { systemClock, type Clock, type Store } from '../ports';
import { diffJson } from './jsonDiff';
import { BASE_FORMAT, JOURNAL_SCHEMA, readBase, recordSchema, type BaseFile, type JournalRecord } from './journalFormat';
import { describeLeftOut, replayJournal, wholeLines, type LeftOut } from './journalReplay';
import { sideFilePath } from './sideFile';
import { isLinkFailure, storageReasonOf } from './storageError';

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
      /** Lines of the journal that could not be applied (their only copy is the file kept aside). */
      readonly leftOut?: LeftOut;
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
    const [baseText, journalText] = await Promise.all([readFile(store, paths.base), readFile(store, paths.journal)]);
    if (typeof baseText === 'object') return { kind: 'unreadable', file: 'base', reason: `the state file ${baseText.why}` };
    if (typeof journalText === 'object') return { kind: 'unreadable', file: 'journal', reason: `the state's journal ${journalText.why}` };
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
    let setAside = replay.setAside;
    let leftOut = replay.leftOut;
    if (reading.kind !== 'state' && replay.replayed > 0) {
      // The changes do not make a valid state: the base alone still is one, and the journal is kept aside.
      const why = describeReading(reading);
      reading = options.read(readBaseState(baseText));
      notes.push(`the ${replay.replayed} journal lines did not make a valid state (${why}); the state is the base's`);
      setAside = true;
      leftOut = describeLeftOut(wholeLines(journalText ?? ''), generation);
    }
    if (reading.kind === 'newer') return { kind: 'newer', file: 'base', schema: reading.schema };
    if (reading.kind === 'unreadable') return { kind: 'unreadable', file: 'base', reason: reading.reason };
    journal.adopt(reading.state, generation, Buffer.byteLength(baseText, 'utf8'), replay.bytes, replay.n, base.kind === 'bare' || setAside);
    if (setAside && !options.readOnly) notes.push(...(await journal.setAside(reading.state, journalText ?? '')));
    return { kind: 'loaded', state: reading.state, journal, replayed: replay.replayed, notes, ...(leftOut ? { leftOut } : {}) };
  }

  /**
   * Keeps a copy of a journal that was not wholly applied, then writes the loaded state as a new
   * base at once (which removes the journal): a session closed before its next change must not
   * open on the old base. The copy goes first and the journal is only removed after the base is
   * written, so a crash in between loads the same files again. Returns notes for the user.
   */
  private async setAside(state: T, journalText: string): Promise<string[]> {
    const aside = await this.keepCopy(journalText);
    try {
      await this.writeBase(state);
      return [`the journal was kept as ${aside}`];
    } catch (e) {
      // needsBase stays set: the next save writes the base, whatever changed.
      const why = e instanceof Error ? e.message : String(e);
      return [`the journal was kept as ${aside}; the new base could not be written yet (${why}) and is written with the next save`];
    }
  }

  /** Writes the journal's text to a new side file next to it, never over an earlier one. */
  private async keepCopy(text: string): Promise<string> {
    const now = this.clock.now();
    for (let number = 1; ; number++) {
      const aside = sideFilePath(this.options.paths.journal, 'unreadable', now, number);
      if (await this.options.store.createExclusive(aside, text)) return aside;
    }
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
    // A base that is wanted (after a journal was set aside) is written even when nothing changed.
    if (!forceBase && !this.needsBase && state === this.saved) return { kind: 'unchanged', bytes: 0 };
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
}

/**
 * A file's text; why it is not read when a folder stands in its place or it is another file under
 * a second name (a hard link, a link): it is then set aside, never read, written or served.
 */
async function readFile(store: Store, path: string): Promise<string | undefined | { why: string }> {
  try {
    return await store.read(path);
  } catch (e) {
    if (storageReasonOf(e) === 'is-folder') return { why: 'is a folder, not a file' };
    if (isLinkFailure(e)) return { why: 'is a link or a hard link to another file, which ctx neither reads nor changes' };
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
