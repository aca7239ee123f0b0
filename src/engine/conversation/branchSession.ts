/**
 * Creates a branch of a session in the store, next to it, from which `ContextSession.open` opens
 * it. The branch's own archive starts with the originals of what it needs (its shared messages and
 * what its checkpoints cover), so a loaded branch holds every message of its context in its own
 * archive and aging and new checkpoints always find their originals; it reads through to the
 * parent's archive for the rest, what the caller left behind included.
 */
import { Archive } from '../archive';
import type { Clock, Store } from '../ports';
import type { ContextSession } from '../session/contextSession';
import { sessionJournalOptions } from '../storage/sessionJournal';
import { newSessionId, sessionPaths } from '../model/sessionPaths';
import { StateJournal } from '../storage/stateJournal';
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
  const needed = new Set([...shared, ...keptCheckpoints(parent.state, shared).flatMap((c) => c.messageIds)]);
  const originals = needed.size > 0 ? await originalsOf(parent, needed, deps.store) : [];
  if (originals.length > 0) await new Archive(deps.store, sessionPaths(id).archive).append(originals);
  const state = branchState({
    parent: parent.state,
    shared,
    abandoned: new Set(request.abandoned),
    archived: new Map(originals.map((m) => [m.id, m])),
    id,
    now: deps.clock.now(),
    archiveParent: parent.id,
    archivedCount: originals.length,
  });
  await StateJournal.create(sessionJournalOptions(id, deps)).compact(state);
  return id;
}

/**
 * The parent's archived originals of the needed messages, in archive order. Its own archive holds
 * them (a branch's own archive starts with what it needs); only a session started fresh from
 * another needs its read-through as well.
 */
async function originalsOf(parent: ContextSession, needed: ReadonlySet<string>, store: Store): Promise<Message[]> {
  const own = firstOfEach((await new Archive(store, parent.paths.archive).read()).messages, needed);
  return own.length === needed.size ? own : firstOfEach(await parent.readArchive(), needed);
}

/** The first message of each needed id, in order. */
function firstOfEach(messages: readonly Message[], needed: ReadonlySet<string>): Message[] {
  const seen = new Set<string>();
  const out: Message[] = [];
  for (const m of messages) {
    if (!needed.has(m.id) || seen.has(m.id)) continue;
    seen.add(m.id);
    out.push(m);
  }
  return out;
}
