/**
 * The state a branch starts from. A caller that changes part of a conversation it already sent
 * (an edited or regenerated message, its own summary in place of older turns) continues from the
 * messages the two versions share: the branch keeps the parent's context for those (compressed as
 * it was, checkpoints that cover only them included) and nothing of what the caller left behind,
 * while its archive reads through to the parent's, so recovery still reaches every original.
 */
import type { Checkpoint } from '../model/checkpoint';
import type { Ledger } from '../model/ledgerTypes';
import { emptyState, type SessionState } from '../model/sessionState';
import type { Message } from '../types';
import type { TrackPosition } from './track';

export interface BranchInputs {
  readonly parent: SessionState;
  /** Ids of the parent's messages the branch shares with it, in conversation order. */
  readonly shared: readonly string[];
  /** Ids of the parent's messages the caller left behind. */
  readonly abandoned: ReadonlySet<string>;
  /** Archived originals of shared messages, for those the parent's context no longer holds as they were. */
  readonly archived: ReadonlyMap<string, Message>;
  readonly id: string;
  readonly now: number;
  /** The session whose archive the branch reads through to. */
  readonly archiveParent: string;
  /** Messages already in the branch's own archive (the originals it starts with). */
  readonly archivedCount: number;
}

export function branchState(b: BranchInputs): SessionState {
  const p = b.parent;
  const kept = keptCheckpoints(p, b.shared);
  const covered = new Set(kept.flatMap((c) => c.messageIds));
  const live = new Map(p.active.map((m) => [m.id, m]));
  // A shared message out of the context that no kept checkpoint covers comes back as archived;
  // one the watermark had dropped is dropped again on the next request.
  const active = b.shared.flatMap((id) => (covered.has(id) ? [] : (live.get(id) ?? b.archived.get(id) ?? [])));
  const watermarkKept =
    p.watermark !== undefined && active.some((m) => m.blocks.some((x) => x.type === 'toolCall' && x.id === p.watermark));
  return {
    ...emptyState(b.id, b.now),
    title: p.title,
    active,
    archivedCount: b.archivedCount,
    ...(watermarkKept ? { watermark: p.watermark } : {}),
    offloads: p.offloads,
    truncations: p.truncations,
    ledger: withoutAbandoned(p.ledger, b.abandoned),
    checkpoints: kept,
    checkpointsMade: p.checkpointsMade,
    contextConfidence: p.contextConfidence,
    parentSessionId: b.archiveParent,
  };
}

/**
 * What a branch leaves behind of its parent's messages after the shared ones. An edited or
 * regenerated message abandons everything after it. When some of those messages come back in the
 * new request, the caller rewrote what came before them (its own summary of older turns): that
 * history still happened, and only the messages that come back (to be added again) are left out.
 */
export function leftBehind(after: readonly TrackPosition[], resentDigests: readonly string[]): { rewritten: boolean; abandoned: string[] } {
  const resent = new Set(resentDigests);
  const rewritten = after.some((p) => resent.has(p.digest));
  return { rewritten, abandoned: (rewritten ? after.filter((p) => resent.has(p.digest)) : after).flatMap((p) => p.ids) };
}

/** Checkpoints stand in for the oldest messages, oldest first: they are kept while they cover shared messages only. */
export function keptCheckpoints(parent: SessionState, shared: readonly string[]): Checkpoint[] {
  const ids = new Set(shared);
  const kept: Checkpoint[] = [];
  for (const c of parent.checkpoints) {
    if (!c.messageIds.every((id) => ids.has(id))) break;
    kept.push(c);
  }
  return kept;
}

/**
 * The ledger without what came from messages the caller left behind: their verbatim copies, the
 * intent if it was one of them, and goals and decisions they set. The tool record stays: what the
 * tools did to the workspace happened all the same.
 */
function withoutAbandoned(ledger: Ledger, abandoned: ReadonlySet<string>): Ledger {
  const from = (messageId: string | undefined) => messageId !== undefined && abandoned.has(messageId);
  return {
    ...ledger,
    intent: ledger.intent && from(ledger.intent.messageId) ? undefined : ledger.intent,
    userMessages: ledger.userMessages.filter((e) => !from(e.messageId)),
    goals: ledger.goals.filter((g) => !from(g.messageId)),
    decisions: ledger.decisions.filter((d) => !from(d.messageId)),
  };
}
