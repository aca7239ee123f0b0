/**
 * Creates a branch of a session in the store, next to it, from which `ContextSession.open` opens
 * it. The branch's archive reads through to its parent's own archive (one level, as a session's
 * archive does); the originals the branch may need (its shared messages and what its checkpoints
 * cover) that the parent's own archive lacks, because they came from further up the line, are
 * copied into the branch's archive, so aging and new checkpoints always find them.
 */
import { Archive } from '../archive';
import type { Clock, Store } from '../ports';
import type { ContextSession } from '../session/contextSession';
import { newSessionId, sessionPaths } from '../session/sessionPaths';
import type { Message } from '../types';
import { branchState, keptCheckpoints } from './branchState';

export interface BranchRequest {
  readonly parent: ContextSession;
  /** Ids of the parent's messages the branch shares, in conversation order. */
  readonly shared: readonly string[];
  /** Ids of the parent's messages whose ledger entries the branch leaves out. */
  readonly abandoned: readonly string[];
}

/** Writes the branch's state (and the start of its archive) and returns its id. */
export async function writeBranch(request: BranchRequest, deps: { readonly store: Store; readonly clock: Clock }): Promise<string> {
  const { parent, shared } = request;
  const id = newSessionId(deps.clock.now());
  const paths = sessionPaths(id);
  const needed = new Set([...shared, ...keptCheckpoints(parent.state, shared).flatMap((c) => c.messageIds)]);
  const originals = needed.size > 0 ? await originalsFor(parent, needed, deps.store) : { all: new Map<string, Message>(), copy: [] };
  if (originals.copy.length > 0) await new Archive(deps.store, paths.archive).append(originals.copy);
  const state = branchState({
    parent: parent.state,
    shared,
    abandoned: new Set(request.abandoned),
    archived: originals.all,
    id,
    now: deps.clock.now(),
    archiveParent: parent.id,
    archivedCount: originals.copy.length,
  });
  await deps.store.write(paths.state, JSON.stringify(state));
  return id;
}

/**
 * The parent's originals of the needed messages, and those of them its own archive lacks (the
 * branch copies these). Reads the parent's own archive and, when something is missing from it,
 * what the parent reads through to.
 */
async function originalsFor(
  parent: ContextSession,
  needed: ReadonlySet<string>,
  store: Store,
): Promise<{ all: Map<string, Message>; copy: Message[] }> {
  const own = (await new Archive(store, parent.paths.archive).read()).messages.filter((m) => needed.has(m.id));
  const ownIds = new Set(own.map((m) => m.id));
  if ([...needed].every((id) => ownIds.has(id))) return { all: new Map(own.map((m) => [m.id, m])), copy: [] };
  const everything = (await parent.readArchive()).filter((m) => needed.has(m.id));
  return { all: new Map(everything.map((m) => [m.id, m])), copy: everything.filter((m) => !ownIds.has(m.id)) };
}
