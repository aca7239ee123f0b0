/** What a stored session holds that the recovery index searches: its offloaded files and its archive. */
import { Archive } from '../archive';
import type { Store } from '../ports';
import { sessionPaths } from '../session/sessionPaths';
import { parseSessionState } from '../session/sessionState';
import type { Message } from '../types';

/** The tool call an offloaded file came from, as the session state recorded it. */
export interface OffloadOrigin {
  readonly callId: string;
  readonly toolName: string;
}

export interface SessionContent {
  /** Folder of the offloaded files. */
  readonly offloadedFolder: string;
  /** Names of the files in it. */
  readonly offloadedNames: readonly string[];
  /** Origin of each offloaded file by name, when the state file could be read. */
  readonly origins: ReadonlyMap<string, OffloadOrigin>;
  readonly archivePath: string;
  readonly messages: readonly Message[];
  /** 1-based archive lines that could not be read back. */
  readonly unreadableLines: readonly number[];
}

/** Reads the session's listing, state and archive. A missing or unreadable state only loses the origins. */
export async function readSessionContent(store: Store, sessionId: string): Promise<SessionContent> {
  const paths = sessionPaths(sessionId);
  const [offloadedNames, stateText, archived] = await Promise.all([
    store.list(paths.offloaded),
    store.read(paths.state),
    new Archive(store, paths.archive).read(),
  ]);
  const state = stateText === undefined ? undefined : parseSessionState(stateText);
  const origins = new Map<string, OffloadOrigin>();
  for (const record of state?.offloads ?? []) {
    origins.set(record.file.split('/').pop() ?? record.file, { callId: record.callId, toolName: record.toolName });
  }
  return {
    offloadedFolder: paths.offloaded,
    offloadedNames,
    origins,
    archivePath: paths.archive,
    messages: archived.messages,
    unreadableLines: archived.unreadableLines,
  };
}
