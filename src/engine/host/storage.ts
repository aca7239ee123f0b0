/**
 * The engine's public surface for sessions on disk: the file store, the locks that keep one writer
 * per session or output folder, storage failures in plain words, session ids and folders, and what
 * a stored session can be asked without opening it (its state, what it offloaded, a search).
 */
export { FileStore } from '../storage/fileStore';
export { WriterLock, WriterLockedError } from '../storage/writerLock';
export { StorageError, storageReasonWords } from '../storage/storageError';
export { peekSessionState } from '../storage/sessionJournal';
export { acquireSessionLock } from '../session/sessionLock';
export { SESSION_LOG_FILE } from '../session/sessionLog';
export { isSessionId, newSessionId, SESSIONS_FOLDER } from '../model/sessionPaths';
export { readSessionOffloaded } from '../recovery/readSessionOffloaded';
export { RecoveryIndex } from '../recovery/recoveryIndex';
export type { RecoveryHit } from '../model/recoveryTypes';
