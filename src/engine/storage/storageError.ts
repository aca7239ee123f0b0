/**
 * Storage failures, typed: the system's error code is turned into a reason a person can act on,
 * so callers branch on `reason` and show `message`, never parse the system's text.
 */

/** Why a storage operation failed, in categories a person can act on. */
export type StorageReason =
  | 'disk-full'
  | 'read-only'
  | 'permission-denied'
  | 'not-found'
  | 'is-folder'
  | 'not-folder'
  | 'link-outside'
  | 'hard-link'
  | 'too-large'
  | 'io-error'
  | 'other';

const REASONS: Readonly<Record<string, StorageReason>> = {
  ENOSPC: 'disk-full',
  EDQUOT: 'disk-full',
  EROFS: 'read-only',
  EACCES: 'permission-denied',
  EPERM: 'permission-denied',
  ENOENT: 'not-found',
  EISDIR: 'is-folder',
  ENOTDIR: 'not-folder',
  EFBIG: 'too-large',
  EIO: 'io-error',
};

/** Each reason in plain words. */
export const REASON_WORDS: Readonly<Record<StorageReason, string>> = {
  'disk-full': 'the disk is full',
  'read-only': 'the disk is read-only',
  'permission-denied': 'permission denied',
  'not-found': 'no such file or folder',
  'is-folder': 'it is a folder, not a file',
  'not-folder': 'a part of the path is a file, not a folder',
  'link-outside': 'it is a link that leads outside the storage folder',
  'hard-link': 'it is another file under a second name (a hard link or a link), so ctx neither reads nor changes it',
  'too-large': 'the file is larger than the system allows',
  'io-error': 'the disk reported an input/output error',
  other: 'an unexpected storage error',
};

/** The system's error code (ENOSPC, EACCES…) of an error or of one it wraps, if any. */
export function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The category of a storage failure. */
export function storageReasonOf(error: unknown): StorageReason {
  if (error instanceof StorageError) return error.reason;
  if (error instanceof LinkOutsideStoreError) return 'link-outside';
  if (error instanceof SharedFileError) return 'hard-link';
  const code = errorCode(error);
  return (code !== undefined && REASONS[code]) || 'other';
}

/** The reason behind a storage failure in plain words, or undefined when it is none of the known ones. */
export function storageReasonWords(error: unknown): string | undefined {
  const reason = storageReasonOf(error);
  return reason === 'other' ? undefined : REASON_WORDS[reason];
}

/** A link inside the store that resolves to a place outside it; it is never followed. */
export class LinkOutsideStoreError extends Error {
  constructor(
    readonly path: string,
    readonly resolved: string,
  ) {
    super(`${path} is a link to ${resolved}, outside the storage folder; it is not followed`);
    this.name = 'LinkOutsideStoreError';
  }
}

/**
 * A file of the store that is another file under a second name: a hard link (the same file has
 * more than one name) or a link at the file itself. What it holds may be another file's (another
 * session's archive, say), and writing to it would change that file, so it is neither read nor
 * appended to.
 */
export class SharedFileError extends Error {
  constructor(
    readonly path: string,
    readonly link: { readonly kind: 'hard'; readonly names: number } | { readonly kind: 'symbolic'; readonly target: string },
  ) {
    super(
      link.kind === 'hard'
        ? `${path} is a hard link (the same file has ${link.names} names, one of them elsewhere); ctx neither reads nor changes it`
        : `${path} is a link to ${link.target}; ctx reads a file only under its own name`,
    );
    this.name = 'SharedFileError';
  }
}

/** True for a failure caused by a link: a link leading out of the store, a link where none may be, or a hard link. */
export function isLinkFailure(error: unknown): boolean {
  const reason = storageReasonOf(error);
  return reason === 'link-outside' || reason === 'hard-link';
}

/** Thrown when the storage folder cannot be read or written; carries the path, the reason and the system's error. */
export class StorageError extends Error {
  readonly reason: StorageReason;

  constructor(
    readonly path: string,
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    const reason = storageReasonOf(cause);
    const detail = cause instanceof Error ? cause.message : String(cause);
    const saysItself = reason === 'other' || reason === 'link-outside' || reason === 'hard-link';
    super(`Could not ${operation} ${path}: ${detail}${saysItself ? '' : ` (${REASON_WORDS[reason]})`}`);
    this.name = 'StorageError';
    this.reason = reason;
  }
}
