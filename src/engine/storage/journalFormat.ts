/**
 * The two files of a journaled state: the base (the whole state, written atomically now and then)
 * and the journal (one line per save with what changed since the one before). Both carry a schema
 * number; the journal's lines carry the base's generation, so lines left from an older base (a
 * crash between writing a new base and removing the old journal) are recognised and skipped.
 */
import { isPlainObject, type DiffOp } from './jsonDiff';

/** Schema of the base file and of the journal lines. */
export const JOURNAL_SCHEMA = 1;
/**
 * Schema of a journal line that drops the front of a list (a list kept to its newest entries):
 * versions of ctx that cannot apply it read it as newer and leave the state alone.
 */
export const DROPPING_SCHEMA = 2;

/** The schema a journal line with these operations is written with. */
export function recordSchema(ops: readonly DiffOp[]): number {
  return ops.some((op) => 'keep' in op && op.drop !== undefined) ? DROPPING_SCHEMA : JOURNAL_SCHEMA;
}
/** Marks a base file, so a state written before journals existed (the bare state) is told apart. */
export const BASE_FORMAT = 'ctx-state-base';

/** The base file: the whole state at one moment, and the generation its journal lines carry. */
export interface BaseFile {
  readonly format: typeof BASE_FORMAT;
  readonly schema: number;
  readonly generation: number;
  /** Milliseconds since the epoch. */
  readonly savedAt: number;
  readonly state: unknown;
}

/** One journal line: the changes of one save. */
export interface JournalRecord {
  readonly schema: number;
  readonly generation: number;
  /** 1 for the first line after a base, then one more for each line. */
  readonly n: number;
  readonly ops: readonly DiffOp[];
}

/** What a base file's text holds. */
export type BaseReading =
  | { readonly kind: 'base'; readonly generation: number; readonly state: unknown }
  /** A bare state object, as written before journals existed: generation 0, no journal of its own. */
  | { readonly kind: 'bare'; readonly state: Record<string, unknown> }
  | { readonly kind: 'newer'; readonly schema: number }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Reads a base file's text. Never throws. */
export function readBase(text: string): BaseReading {
  const value = parseJson(text);
  if (!value.ok) return { kind: 'unreadable', reason: text.trim() === '' ? 'it is empty' : 'it is not valid JSON (cut short or damaged)' };
  if (!isPlainObject(value.value)) return { kind: 'unreadable', reason: `it holds ${describe(value.value)}, not an object` };
  const v = value.value;
  if (v.format !== BASE_FORMAT) return { kind: 'bare', state: v };
  if (typeof v.schema === 'number' && v.schema > JOURNAL_SCHEMA) return { kind: 'newer', schema: v.schema };
  if (v.schema !== JOURNAL_SCHEMA) return { kind: 'unreadable', reason: `its schema ${JSON.stringify(v.schema)} is not one ctx knows` };
  if (!isWholeNumber(v.generation)) return { kind: 'unreadable', reason: 'it has no valid generation number' };
  return { kind: 'base', generation: v.generation, state: v.state };
}

/** What one journal line holds. */
export type RecordReading =
  | { readonly kind: 'record'; readonly record: JournalRecord }
  | { readonly kind: 'newer'; readonly schema: number }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Reads one journal line. Never throws. */
export function readRecord(line: string): RecordReading {
  const value = parseJson(line);
  if (!value.ok || !isPlainObject(value.value)) return { kind: 'unreadable', reason: 'it is not a JSON object' };
  const v = value.value;
  if (typeof v.schema === 'number' && v.schema > DROPPING_SCHEMA) return { kind: 'newer', schema: v.schema };
  const schema = v.schema === JOURNAL_SCHEMA || v.schema === DROPPING_SCHEMA ? v.schema : undefined;
  if (schema === undefined || !isWholeNumber(v.generation) || !isWholeNumber(v.n) || !Array.isArray(v.ops) || !v.ops.every(isOp)) {
    return { kind: 'unreadable', reason: 'it is not a journal record' };
  }
  if (recordSchema(v.ops) > schema) return { kind: 'unreadable', reason: 'it drops the front of a list without saying so in its schema' };
  return { kind: 'record', record: { schema, generation: v.generation, n: v.n, ops: v.ops } };
}

function isOp(v: unknown): v is DiffOp {
  if (!isPlainObject(v) || !Array.isArray(v.p) || !v.p.every((k) => typeof k === 'string' || isWholeNumber(k))) return false;
  if ('set' in v) return true;
  if ('del' in v) return v.del === true;
  return isWholeNumber(v.keep) && Array.isArray(v.push) && (v.drop === undefined || isWholeNumber(v.drop));
}

function isWholeNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/** JSON.parse, which cannot overflow on nesting; a failure is a value, not an exception. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return `a ${typeof v}`;
}
