/** The plain words the recovery index uses to say what it left out. */
import type { RecoveryNote, RecoverySource } from '../model/recoveryTypes';
import { formatCount } from '../text/numbers';

/** Part of a large document is searchable; an offloaded file can still be read past that part. */
export function cappedNote(source: RecoverySource, ref: string, kept: number, total: number, lastLine: number): RecoveryNote {
  const share = `only the first ${formatCount(kept)} of ${formatCount(total)} characters (up to line ${formatCount(lastLine)})`;
  const readOn = source === 'offloaded' ? ` Read further with ctx_read_offloaded from line ${lastLine}.` : '';
  return { ref, message: `${ref} is large: ${share} are searchable.${readOn}` };
}

/** The index was full when this document came. */
export function indexFullNote(ref: string, maxTotalChars: number): RecoveryNote {
  return {
    ref,
    message: `${ref} is not searchable: the index already holds its limit of ${formatCount(maxTotalChars)} characters.`,
  };
}

/** Archive lines that `Archive.read` could not parse. */
export function unreadableArchiveNote(archivePath: string, sessionId: string, lines: readonly number[]): RecoveryNote {
  return {
    ref: archivePath,
    message: `Archive lines ${lines.join(', ')} of session ${sessionId} could not be read and are not searchable.`,
  };
}

/** An entry of the offloaded folder that is not a plain file: links are never followed, folders never entered. */
export function skippedEntryNote(path: string, kind: string): RecoveryNote {
  const what =
    kind === 'link' ? 'a link, which is never followed' : kind === 'folder' ? 'a folder, not an offloaded file' : 'not a plain file';
  return { ref: path, message: `${path} is ${what}; it is not searched.` };
}

/** An offloaded file that could not be read while indexing. */
export function unreadableFileNote(path: string, reason: string): RecoveryNote {
  return { ref: path, message: `${path} could not be read (${reason}); it is not searched.` };
}
