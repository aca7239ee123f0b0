/**
 * What can go wrong when the model or the user reaches back into a session's stored content. Each
 * error carries its reason as data, so the boundary can phrase it for people without parsing text.
 */
import { formatCount } from '../text/numbers';

/** Base class of the recovery errors, for one `instanceof` at the boundary. */
export abstract class RecoveryError extends Error {}

/** Why a requested path was refused. */
export type RefusalReason = 'empty' | 'climbs' | 'absolute' | 'outsideOffloadedFolder' | 'otherSession' | 'link' | 'hardLink' | 'folder';

const REFUSAL_WORDS: Record<RefusalReason, string> = {
  empty: 'no file name was given',
  climbs: 'it contains "..", ".", a backslash or a NUL character',
  absolute: "it is an absolute path that is not this session's offloaded folder",
  outsideOffloadedFolder: "it points outside this session's offloaded folder",
  otherSession: 'it belongs to another session, and only the current session can be read',
  link: 'it is a link, and links are never followed (only files ctx wrote can be read)',
  hardLink: 'it is a hard link: the same file also stands outside the offloaded folder, so it is not read',
  folder: 'it is a folder, not an offloaded file',
};

/** A path that does not name a file directly inside the session's offloaded folder. */
export class OffloadedPathRefusedError extends RecoveryError {
  constructor(
    readonly requested: string,
    readonly sessionId: string,
    readonly reason: RefusalReason,
  ) {
    super(
      `Refused to read "${requested}": ${REFUSAL_WORDS[reason]}. ` +
        `Only files in the offloaded folder of session ${sessionId} can be read; pass the bare file name.`,
    );
    this.name = 'OffloadedPathRefusedError';
  }
}

/** The name is well formed but no such offloaded file exists; lists what does. */
export class OffloadedFileNotFoundError extends RecoveryError {
  constructor(
    readonly fileName: string,
    readonly sessionId: string,
    readonly available: readonly string[],
  ) {
    super(
      `No offloaded file "${fileName}" in session ${sessionId}. ` +
        (available.length === 0 ? 'The session has no offloaded files.' : `Available: ${available.join(', ')}.`),
    );
    this.name = 'OffloadedFileNotFoundError';
  }
}

/** A line range that is not inside the file (or not a range at all). */
export class OffloadedRangeError extends RecoveryError {
  constructor(
    readonly fileName: string,
    readonly totalLines: number,
    readonly startLine: number,
    readonly endLine: number | undefined,
  ) {
    super(
      `Lines ${startLine}${endLine === undefined ? '' : `–${endLine}`} cannot be read from ${fileName}: ` +
        `line numbers are whole numbers from 1 to ${formatCount(totalLines)}, and the end may not come before the start.`,
    );
    this.name = 'OffloadedRangeError';
  }
}

/** A session id that is not a single plain folder name, so it could point anywhere in the store. */
export class UnsafeSessionIdError extends RecoveryError {
  constructor(readonly sessionId: string) {
    super(`"${sessionId}" is not a session id: it must be one folder name, without "/", "\\" or "..".`);
    this.name = 'UnsafeSessionIdError';
  }
}

/** The tool was called outside any ctx session, so there is nothing it may read. */
export class NoCurrentSessionError extends RecoveryError {
  constructor() {
    super('There is no current @ctx session, so there are no offloaded results to read. Ask @ctx in the Chat view first.');
    this.name = 'NoCurrentSessionError';
  }
}
