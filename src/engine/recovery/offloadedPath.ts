/**
 * Turns whatever the model passes as an offloaded file (the bare name, `offloaded/<name>`, the store
 * path, or the location shown in the offload notice) into a file directly inside the session's
 * offloaded folder, and refuses everything else before the store is touched.
 */
import type { Store } from '../ports';
import { SESSIONS_FOLDER, sessionPaths } from '../model/sessionPaths';
import { OffloadedPathRefusedError, UnsafeSessionIdError } from './recoveryErrors';

/** The offloaded folder's name inside a session folder. */
const OFFLOADED_FOLDER_NAME = 'offloaded';

/** Throws unless the id is one plain folder name: an id with "/" or ".." would address another folder. */
export function assertSafeSessionId(sessionId: string): void {
  if (!isPlainSegment(sessionId)) throw new UnsafeSessionIdError(sessionId);
}

/** A file directly inside a session's offloaded folder. */
export interface OffloadedFile {
  /** The bare file name. */
  readonly name: string;
  /** The store path: `sessions/<id>/offloaded/<name>`. */
  readonly path: string;
}

/** Resolves a name or path to a file of the session's offloaded folder, or throws a refusal. */
export function resolveOffloadedFile(store: Store, sessionId: string, nameOrPath: string): OffloadedFile {
  assertSafeSessionId(sessionId);
  const folder = sessionPaths(sessionId).offloaded;
  const requested = nameOrPath.trim();
  if (requested.length === 0) throw new OffloadedPathRefusedError(nameOrPath, sessionId, 'empty');
  const fromLocation = matchShownLocation(store, folder, requested);
  if (fromLocation) return fromLocation;
  if (requested.startsWith('/') || /^[a-zA-Z]:/.test(requested) || /^[a-z][a-z0-9+.-]*:\//i.test(requested)) {
    throw new OffloadedPathRefusedError(nameOrPath, sessionId, 'absolute');
  }
  const segments = requested.split('/').filter((s) => s.length > 0);
  if (!segments.every(isPlainSegment)) throw new OffloadedPathRefusedError(nameOrPath, sessionId, 'climbs');
  const name = nameFromSegments(segments, sessionId);
  if (name === undefined) throw new OffloadedPathRefusedError(nameOrPath, sessionId, 'outsideOffloadedFolder');
  return { name, path: `${folder}/${name}` };
}

/** `<name>`, `offloaded/<name>` or `sessions/<this id>/offloaded/<name>`; anything else is outside. */
function nameFromSegments(segments: readonly string[], sessionId: string): string | undefined {
  const [first, second, third, fourth] = segments;
  switch (segments.length) {
    case 1:
      return first;
    case 2:
      return first === OFFLOADED_FOLDER_NAME ? second : undefined;
    case 4:
      return first === SESSIONS_FOLDER && second === sessionId && third === OFFLOADED_FOLDER_NAME ? fourth : undefined;
    default:
      return undefined;
  }
}

/**
 * The offload notice shows `store.locate(path)` (an absolute file path or a URI). It is accepted
 * only when it is exactly what the store would show for a file of this folder.
 */
function matchShownLocation(store: Store, folder: string, requested: string): OffloadedFile | undefined {
  const name = requested.split(/[\\/]/).pop() ?? '';
  if (!isPlainSegment(name)) return undefined;
  const path = `${folder}/${name}`;
  return store.locate(path) === requested ? { name, path } : undefined;
}

function isPlainSegment(segment: string): boolean {
  return segment.length > 0 && segment !== '.' && segment !== '..' && !/[/\\\0]/.test(segment);
}
