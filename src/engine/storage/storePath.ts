/** Store paths are relative, '/'-separated and may not climb out of the store's root. */

export class StorePathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Invalid storage path "${path}": ${reason}`);
    this.name = 'StorePathError';
  }
}

/** Splits a store path into its segments, rejecting anything that could escape the root. */
export function storePathSegments(path: string): string[] {
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) throw new StorePathError(path, 'it must be relative');
  const segments = path.split('/').filter((s) => s.length > 0);
  if (segments.length === 0) throw new StorePathError(path, 'it is empty');
  for (const s of segments) {
    if (s === '.' || s === '..') throw new StorePathError(path, 'it may not contain "." or ".." segments');
    if (s.includes('\\') || s.includes('\0')) throw new StorePathError(path, 'it may not contain backslashes or NUL');
  }
  return segments;
}

/** Joins store path parts with '/'. */
export function joinStorePath(...parts: string[]): string {
  return parts.filter((p) => p.length > 0).join('/');
}
