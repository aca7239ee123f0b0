/**
 * A session state rebuilt when its saved state cannot be used: from the latest readable snapshot
 * (ledger with goals and decisions, checkpoints, watermark, offloads, the context it saw) and the
 * archive (every message). Messages archived after the snapshot are handed back for the session
 * to take in through its normal intake, so the ledger and the tiers see them as they did.
 */
import type { ArchiveReadResult } from '../archive';
import { emptyState, type SessionState } from '../model/sessionState';
import { sessionTitle } from './sessionTitle';
import type { Snapshot } from '../snapshots/snapshot';
import type { Message } from '../types';

export interface RebuiltSession {
  readonly state: SessionState;
  /** Archived messages the rebuilt state does not hold yet, oldest first. */
  readonly unreconciled: readonly Message[];
  /** The snapshot the state was rebuilt from, when one could be used. */
  readonly snapshot?: Snapshot;
}

/** Rebuilds from the snapshot when the archive holds what it covers, else from the archive alone. */
export function rebuildSession(id: string, now: number, archive: ArchiveReadResult, snapshot: Snapshot | undefined): RebuiltSession {
  const base: SessionState = { ...emptyState(id, now), title: sessionTitle(archive.messages) };
  const last = snapshot ? lastCoveredIndex(archive.messages, snapshot) : -1;
  if (!snapshot || last < 0) return { state: base, unreconciled: archive.messages };
  const { content } = snapshot;
  const state: SessionState = {
    ...base,
    ledger: content.ledger,
    checkpoints: content.checkpoints,
    active: content.active,
    offloads: content.offloads,
    earlierLines: content.earlierLines ?? [],
    ...(content.watermark === undefined ? {} : { watermark: content.watermark }),
    archivedCount: archive.positions[last] + 1,
    checkpointsMade: Math.max(0, ...content.checkpoints.map((c) => c.compressionNumber)),
  };
  return { state, unreconciled: archive.messages.slice(last + 1), snapshot };
}

/** Index in the archive of the last message the snapshot covers (live or summarized), or -1. */
function lastCoveredIndex(messages: readonly Message[], snapshot: Snapshot): number {
  const covered = new Set([...snapshot.content.active.map((m) => m.id), ...snapshot.content.checkpoints.flatMap((c) => c.messageIds)]);
  for (let i = messages.length - 1; i >= 0; i--) if (covered.has(messages[i].id)) return i;
  return -1;
}
