/**
 * Lists made by appending to another, remembered so the state journal's diff knows an append
 * without comparing every element: a session's history, truncations and offloads grow by one
 * request's worth at a time and reach thousands of entries. The list appended to is held weakly:
 * remembering must not keep every earlier version of a list alive.
 */
const bases = new WeakMap<readonly unknown[], WeakRef<readonly unknown[]>>();

/** Appends followed back when looking for an earlier version: more than a few requests' worth between two saves. */
const MAX_STEPS = 32;

/** `list` with `items` after it, remembered as an append; `list` itself when there are none. */
export function appended<T>(list: readonly T[], items: readonly T[]): readonly T[] {
  if (items.length === 0) return list;
  const next = concatenated(list, items);
  bases.set(next, new WeakRef(list));
  return next;
}

/**
 * `list` then `items`, in a new list made at its size: a spread grows its list as it goes, and a
 * large window's live messages are thousands, copied on every message.
 */
export function concatenated<T>(list: readonly T[], items: readonly T[]): T[] {
  const next = new Array<T>(list.length + items.length);
  for (let i = 0; i < list.length; i++) next[i] = list[i];
  for (let i = 0; i < items.length; i++) next[list.length + i] = items[i];
  return next;
}

/** True when `later` was made from `earlier` by `appended`, in one step or several. */
export function isAppendedTo(later: readonly unknown[], earlier: readonly unknown[]): boolean {
  let at: readonly unknown[] | undefined = later;
  for (let step = 0; step < MAX_STEPS && at !== undefined; step++) {
    at = bases.get(at)?.deref();
    if (at === earlier) return true;
  }
  return false;
}
