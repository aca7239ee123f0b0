/**
 * Creates a branch of a session in the store, next to it, from which `ContextSession.open` opens
 * it. The branch's archive reads through to the first session of the line: a branch of a branch
 * starts with a copy of its parent's own archive, so one level of read-through always reaches
 * every original.
 */
import type { Clock, Store } from '../ports';
import type { ContextSession } from '../session';
import { newSessionId, sessionPaths } from '../sessionPaths';
import { branchState, sharedOutOfContext } from './branchState';

export interface BranchRequest {
  readonly parent: ContextSession;
  /** Ids of the parent's messages the branch shares, in conversation order. */
  readonly shared: readonly string[];
  /** Ids of the parent's messages the caller left behind. */
  readonly abandoned: readonly string[];
}

/** Writes the branch's state (and its archive's start) and returns its id. */
export async function writeBranch(request: BranchRequest, deps: { readonly store: Store; readonly clock: Clock }): Promise<string> {
  const { parent } = request;
  const id = newSessionId(deps.clock.now());
  const root = parent.state.parentSessionId;
  const paths = sessionPaths(id);
  let archivedCount = 0;
  if (root) {
    const own = (await deps.store.read(parent.paths.archive)) ?? '';
    const lines = own.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 0) await deps.store.append(paths.archive, lines);
    archivedCount = lines.length;
  }
  // Reading the archive is the one cost that grows with the whole history: only when the context lacks a shared message.
  const needed = new Set(sharedOutOfContext(parent.state, request.shared));
  const archived = new Map(needed.size === 0 ? [] : (await parent.readArchive()).filter((m) => needed.has(m.id)).map((m) => [m.id, m]));
  const state = branchState({
    parent: parent.state,
    shared: request.shared,
    abandoned: new Set(request.abandoned),
    archived,
    id,
    now: deps.clock.now(),
    archiveParent: root ?? parent.id,
    archivedCount,
  });
  await deps.store.write(paths.state, JSON.stringify(state));
  return id;
}
