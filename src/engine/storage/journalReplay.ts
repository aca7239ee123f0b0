/**
 * Replaying a journal's whole lines onto its base. Every line that is not applied is counted and
 * said: lines of another generation than the base's (left by a save interrupted after a new base
 * was written, or belonging to a base that is gone), a line that repeats the one before it, and
 * the lines from the first one that cannot be applied on. What those left-out lines would have
 * changed is read from them where they can be read, so the user can be told what did not come back.
 */
import { applyDiff, DiffMismatchError } from './jsonDiff';
import { readRecord, type JournalRecord } from './journalFormat';

/** Journal lines that were not applied, and what they would have changed. */
export interface LeftOut {
  /** Lines of this generation left out from the first one that could not be applied. */
  readonly lines: number;
  /** Top-level fields of the state those lines would have changed (from the lines that could be read). */
  readonly fields: readonly string[];
  /** Some of them could not be read at all, so what they changed is unknown. */
  readonly unknown: boolean;
}

export interface Replay {
  readonly kind: 'replayed';
  readonly state: unknown;
  readonly replayed: number;
  /** The last record number applied. */
  readonly n: number;
  /** Bytes of this generation's applied lines. */
  readonly bytes: number;
  /** True when any whole line was not applied: the journal must be kept aside before a new base replaces it. */
  readonly setAside: boolean;
  /** Lines of this generation that could not be applied; undefined when there were none. */
  readonly leftOut?: LeftOut;
  readonly notes: readonly string[];
}

/** Applies the journal's lines of this generation to the base's state, in order, up to the first that does not fit. */
export function replayJournal(baseState: unknown, text: string, generation: number): Replay | { kind: 'newer'; schema: number } {
  let state = baseState;
  const notes: string[] = [];
  let replayed = 0;
  let n = 0;
  let bytes = 0;
  let previous: string | undefined;
  const otherGenerations = new Map<number, number>();
  let repeats = 0;
  const lines = text.split('\n');
  const torn = lines.pop() ?? '';
  if (torn.trim() !== '') notes.push(`the journal's last line was cut short (a save interrupted) and was ignored`);
  let leftOut: LeftOut | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const reading = readRecord(lines[i]);
    if (reading.kind === 'newer') return { kind: 'newer', schema: reading.schema };
    if (reading.kind === 'record' && reading.record.generation !== generation) {
      otherGenerations.set(reading.record.generation, (otherGenerations.get(reading.record.generation) ?? 0) + 1);
      continue;
    }
    if (lines[i] === previous) {
      // The same change written twice: applying it once is what was saved.
      repeats++;
      continue;
    }
    const problem =
      reading.kind === 'unreadable'
        ? reading.reason
        : applyProblem(reading.record, n, () => (state = applyDiff(state, reading.record.ops)));
    if (problem !== undefined) {
      const rest = lines.slice(i).filter((l) => l.trim() !== '');
      leftOut = describeLeftOut(rest, generation);
      notes.push(`journal line ${i + 1} could not be applied (${problem}); it and the ${rest.length - 1} after it were left out`);
      break;
    }
    previous = lines[i];
    replayed++;
    n++;
    bytes += Buffer.byteLength(lines[i], 'utf8') + 1;
  }
  if (repeats > 0) {
    const one = repeats === 1;
    notes.push(
      `${plural(repeats, 'journal line')} repeated the line before ${one ? 'it' : 'them'} and ${one ? 'was' : 'were'} applied once`,
    );
  }
  if (otherGenerations.size > 0) notes.push(otherGenerationNote(otherGenerations, generation));
  const setAside = leftOut !== undefined || repeats > 0 || otherGenerations.size > 0;
  return { kind: 'replayed', state, replayed, n, bytes, setAside, notes, ...(leftOut ? { leftOut } : {}) };
}

function otherGenerationNote(counts: ReadonlyMap<number, number>, generation: number): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const older = [...counts.keys()].every((g) => g < generation);
  const gens = [...counts.keys()].sort((a, b) => a - b).join(', ');
  return (
    `${plural(total, 'journal line')} of another base (generation ${gens}; the base is generation ${generation}) ` +
    `${total === 1 ? 'was' : 'were'} not applied` +
    (older ? ' (a save was interrupted after writing the base, which holds them already)' : ' (they belong to a base that is not there)')
  );
}

/** The journal's whole, non-empty lines. */
export function wholeLines(text: string): string[] {
  return text
    .split('\n')
    .slice(0, -1)
    .filter((l) => l.trim() !== '');
}

/** What the left-out lines would have changed, read from those that can be read. */
export function describeLeftOut(rest: readonly string[], generation: number): LeftOut {
  const fields = new Set<string>();
  let unknown = false;
  for (const line of rest) {
    const reading = readRecord(line);
    if (reading.kind !== 'record') {
      unknown = true;
      continue;
    }
    if (reading.record.generation !== generation) continue;
    for (const op of reading.record.ops) fields.add(op.p.length === 0 ? '' : String(op.p[0]));
  }
  return { lines: rest.length, fields: [...fields].sort(), unknown };
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

function plural(n: number, one: string): string {
  return `${n} ${n === 1 ? one : `${one}s`}`;
}
