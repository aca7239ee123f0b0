/**
 * What changed between two versions of a JSON state, found cheaply because updates are immutable:
 * a value that is the same object as before did not change and is skipped without a look inside;
 * an array whose old elements start the new one (by identity) only grew. The operations apply to
 * the JSON form of the old state (what `JSON.parse(JSON.stringify(old))` gives) and yield the
 * JSON form of the new one. They hold the new state's values by reference: serialize them before
 * anything could change those values (immutable state never does).
 */
import { isAppendedTo } from '../appendedList';

/** Keys of objects and indices of arrays from the root down to a value. */
export type JsonPath = readonly (string | number)[];

/** Puts a value at the path (a new key, or a replaced value). */
export interface SetOp {
  readonly p: JsonPath;
  readonly set: unknown;
}

/** Removes a key of an object. */
export interface DeleteOp {
  readonly p: JsonPath;
  readonly del: true;
}

/**
 * Removes the first `drop` elements of an array (none when absent), keeps the first `keep` of the
 * rest and appends `push`: an append when nothing was cut, a sliding window (a list kept to its
 * newest entries) when the front was dropped.
 */
export interface SpliceOp {
  readonly p: JsonPath;
  readonly drop?: number;
  readonly keep: number;
  readonly push: readonly unknown[];
}

export type DiffOp = SetOp | DeleteOp | SpliceOp;

/**
 * Changed elements of an array of the same or a greater length are diffed one by one only while
 * they are this share of the elements or fewer; beyond it (elements shifted, say) the array is
 * replaced from its first change.
 */
const ELEMENTWISE_MAX_SHARE = 1 / 8;

/**
 * A list this short is diffed element by element whatever share of it changed: its elements may
 * be large objects that change in part, like the checkpoints, where the oldest (the merged one)
 * takes in the next at every compression and its span of message ids grows at its end.
 */
const SHORT_LIST = 8;

/** The operations that turn the JSON form of `before` into the JSON form of `after`. */
export function diffJson(before: unknown, after: unknown): DiffOp[] {
  const ops: DiffOp[] = [];
  if (isStored(before) && isStored(after)) diffValue(before, after, [], ops);
  else if (isStored(before) || isStored(after)) ops.push({ p: [], set: storedForm(after) });
  return ops;
}

function diffValue(before: unknown, after: unknown, path: (string | number)[], ops: DiffOp[]): void {
  if (before === after) return;
  if (isPlainObject(before) && isPlainObject(after)) diffObject(before, after, path, ops);
  else if (Array.isArray(before) && Array.isArray(after)) diffArray(before, after, path, ops);
  else if (!sameJsonPrimitive(before, after)) ops.push({ p: [...path], set: after });
}

function diffObject(before: Record<string, unknown>, after: Record<string, unknown>, path: (string | number)[], ops: DiffOp[]): void {
  for (const key of Object.keys(after)) {
    const next = after[key];
    // Own keys only: `before["__proto__"]` would otherwise be Object.prototype.
    const previous = hasOwn(before, key) ? before[key] : undefined;
    if (previous === next) continue;
    if (!isStored(next)) {
      if (isStored(previous)) ops.push({ p: [...path, key], del: true });
    } else if (!isStored(previous)) ops.push({ p: [...path, key], set: next });
    else diffValue(previous, next, [...path, key], ops);
  }
  for (const key of Object.keys(before)) {
    if (!hasOwn(after, key) && isStored(before[key])) ops.push({ p: [...path, key], del: true });
  }
}

function diffArray(before: readonly unknown[], after: readonly unknown[], path: (string | number)[], ops: DiffOp[]): void {
  if (isAppendedTo(after, before)) {
    ops.push({ p: [...path], keep: before.length, push: after.slice(before.length) });
    return;
  }
  const overlap = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < overlap && before[prefix] === after[prefix]) prefix++;
  if (prefix === before.length) {
    if (after.length > prefix) ops.push({ p: [...path], keep: prefix, push: after.slice(prefix) });
    return;
  }
  if (after.length >= before.length && diffInPlace(before, after, 0, path, ops)) return;
  if (prefix === 0 && after.length > 0) {
    // Its oldest entries dropped and new ones appended: only the change is written.
    const drop = before.indexOf(after[0], 1);
    if (drop > 0 && after.length >= before.length - drop && diffInPlace(before, after, drop, path, ops)) return;
  }
  ops.push({ p: [...path], keep: prefix, push: after.slice(prefix) });
}

/**
 * Writes `after` as `before` without its first `drop` elements, with the elements that changed
 * diffed one by one and the new ones appended; false, writing nothing, when too many changed.
 */
function diffInPlace(
  before: readonly unknown[],
  after: readonly unknown[],
  drop: number,
  path: (string | number)[],
  ops: DiffOp[],
): boolean {
  const kept = before.length - drop;
  const changed: number[] = [];
  for (let i = 0; i < kept; i++) if (before[drop + i] !== after[i]) changed.push(i);
  const mostChanged = kept <= SHORT_LIST ? kept : Math.max(drop === 0 ? 1 : 0, kept * ELEMENTWISE_MAX_SHARE);
  if (changed.length > mostChanged) return false;
  if (drop > 0 || after.length > kept) ops.push({ p: [...path], ...(drop > 0 ? { drop } : {}), keep: kept, push: after.slice(kept) });
  for (const i of changed) diffElement(before[drop + i], after[i], [...path, i], ops);
  return true;
}

/** An array element is never absent: JSON writes `undefined` there as null. */
function diffElement(before: unknown, after: unknown, path: (string | number)[], ops: DiffOp[]): void {
  if (isStored(before) && isStored(after)) diffValue(before, after, path, ops);
  else if (isStored(before) || isStored(after)) ops.push({ p: path, set: storedForm(after) });
}

/** What JSON writes for a value where it cannot leave it out (an array element, an operation's value). */
function storedForm(value: unknown): unknown {
  return isStored(value) ? value : null;
}

/** Values JSON keeps in an object (it drops undefined, functions and symbols). */
function isStored(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function sameJsonPrimitive(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return (Number.isFinite(a) ? a : null) === (Number.isFinite(b) ? b : null);
  return false;
}

function hasOwn(record: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An operation that does not fit the state it is applied to: the journal does not belong to it. */
export class DiffMismatchError extends Error {
  constructor(
    readonly op: DiffOp,
    reason: string,
  ) {
    super(`A change to ${JSON.stringify(op.p)} does not fit the state: ${reason}.`);
    this.name = 'DiffMismatchError';
  }
}

/**
 * Applies operations to a JSON value read back from storage, changing it in place; returns the
 * new root (a set at the empty path replaces it). Throws `DiffMismatchError` when an operation
 * does not fit.
 */
export function applyDiff(root: unknown, ops: readonly DiffOp[]): unknown {
  let current = root;
  for (const op of ops) current = applyOp(current, op);
  return current;
}

function applyOp(root: unknown, op: DiffOp): unknown {
  if (op.p.length === 0) {
    if ('set' in op) return op.set;
    if ('keep' in op && Array.isArray(root)) return splice(root, op);
    throw new DiffMismatchError(op, 'the root can only be replaced or, as an array, spliced');
  }
  const parent = walk(root, op.p.slice(0, -1), op);
  const last = op.p[op.p.length - 1];
  if ('keep' in op) {
    const array = member(parent, last, op);
    if (!Array.isArray(array)) throw new DiffMismatchError(op, 'there is no array there');
    splice(array, op);
  } else if ('del' in op) {
    if (!isPlainObject(parent) || typeof last !== 'string') throw new DiffMismatchError(op, 'only a key of an object can be removed');
    delete parent[last];
  } else if (Array.isArray(parent)) {
    if (typeof last !== 'number' || last < 0 || last >= parent.length) throw new DiffMismatchError(op, 'the array has no such element');
    parent[last] = op.set;
  } else if (isPlainObject(parent) && typeof last === 'string') {
    // Defined, not assigned: a key such as "__proto__" stays a plain key.
    Object.defineProperty(parent, last, { value: op.set, writable: true, enumerable: true, configurable: true });
  } else throw new DiffMismatchError(op, 'there is no object or array to set it in');
  return root;
}

function splice(array: unknown[], op: SpliceOp): unknown[] {
  const drop = op.drop ?? 0;
  if (!Number.isInteger(drop) || drop < 0 || drop > array.length) {
    throw new DiffMismatchError(op, `the array has ${array.length} elements, ${drop} were to be dropped`);
  }
  if (!Number.isInteger(op.keep) || op.keep < 0 || op.keep > array.length - drop || !Array.isArray(op.push)) {
    throw new DiffMismatchError(op, `the array has ${array.length - drop} elements, ${op.keep} were to be kept`);
  }
  if (drop > 0) array.splice(0, drop);
  array.length = op.keep;
  for (const item of op.push) array.push(item);
  return array;
}

function walk(root: unknown, path: JsonPath, op: DiffOp): unknown {
  let node = root;
  for (const key of path) node = member(node, key, op);
  return node;
}

function member(node: unknown, key: string | number, op: DiffOp): unknown {
  if (Array.isArray(node) && typeof key === 'number' && key >= 0 && key < node.length) return node[key];
  if (isPlainObject(node) && typeof key === 'string' && Object.prototype.hasOwnProperty.call(node, key)) return node[key];
  throw new DiffMismatchError(op, `${JSON.stringify(key)} is not there`);
}
