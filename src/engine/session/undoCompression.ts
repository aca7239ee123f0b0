/**
 * Undoing the last compression: the snapshot taken before it is put back, with what happened since
 * kept. The messages that arrived after the compression stay (after the restored ones), the ledger
 * stays as it is now (it is never summarized, and has learnt from those messages), and so do the
 * offloaded results (their files still exist). The checkpoint the compression made is retired, not
 * lost: it is kept in the state and in the snapshot taken before the undo, and it can be searched.
 */
import type { Checkpoint } from '../model/checkpoint';
import { withRetired } from '../model/retiredCheckpoint';
import type { Snapshot, SnapshotSummary } from '../snapshots/snapshot';
import { refused, type ItemEdit } from './itemEdit';
import type { SessionState } from '../model/sessionState';

/** What the undo reads snapshots through. */
export interface UndoSnapshots {
  /** Snapshots, newest first. */
  list(): Promise<readonly SnapshotSummary[]>;
  read(id: string): Promise<Snapshot | undefined>;
}

/**
 * The snapshot an undo would restore: the newest taken before a compression, not restored by an
 * undo already, whose context differs from the current one (a compression that changed nothing
 * has nothing to undo). The history names the snapshots taken, newest last, so only the few
 * newest are read; a history from before it named them falls back to the list of every snapshot.
 */
export async function snapshotToUndo(state: SessionState, snapshots: UndoSnapshots): Promise<Snapshot | undefined> {
  const undone = undoneSnapshots(state);
  for (const id of await candidates(state, snapshots)) {
    if (undone.has(id)) continue;
    const snapshot = await snapshots.read(id);
    if (snapshot?.reason === 'before-checkpoint' && compressedSince(state, snapshot)) return snapshot;
  }
  return undefined;
}

/** Ids of the snapshots that may have been taken before a compression, newest first. */
async function candidates(state: SessionState, snapshots: UndoSnapshots): Promise<string[]> {
  const named = state.history.flatMap((e) => (e.name === 'auto-snapshot-created' && e.snapshotId ? [e.snapshotId] : [])).reverse();
  if (named.length > 0) return named;
  return (await snapshots.list()).filter((s) => s.readable && s.reason === 'before-checkpoint').map((s) => s.id);
}

/** The patch that undoes the compression after `snapshot`, and what to say about it. */
export function undoCompression(state: SessionState, snapshot: Snapshot | undefined, now: number): ItemEdit {
  if (!snapshot) return refused('There is no compression to undo: no snapshot taken before one differs from the context now.');
  const c = snapshot.content;
  const restoredIds = new Set(c.active.map((m) => m.id));
  const since = state.active.filter((m) => !restoredIds.has(m.id));
  const before = new Set(c.checkpoints.map((cp) => cp.id));
  const undone = state.checkpoints.filter((cp) => !before.has(cp.id));
  const live = new Set(state.active.map((m) => m.id));
  const back = c.active.filter((m) => !live.has(m.id)).length;
  const retired = withRetired(
    state.retiredCheckpoints,
    undone.map((checkpoint) => ({ checkpoint, reason: 'undone' as const, at: now, snapshotId: snapshot.id })),
  );
  return {
    patch: {
      active: [...c.active, ...since],
      checkpoints: c.checkpoints,
      watermark: c.watermark,
      earlierLines: c.earlierLines ?? [],
      earlierRoom: 0,
      earlierPrintedRoom: 0,
      putBack: '',
      pendingCheckpointTool: undefined,
      checkpointsMade: undone.length > 0 ? Math.max(0, state.checkpointsMade - 1) : state.checkpointsMade,
      checkpointsHeld: true,
      retiredCheckpoints: retired,
    },
    events: [
      {
        at: now,
        kind: 'undo',
        savedTokens: 0,
        detail:
          `Undid the last compression: the context is back as it was before it ` +
          `("${snapshot.name}", ${back} message${back === 1 ? '' : 's'} back)${undoneWords(undone)}`,
        name: 'compression-undone',
        snapshotId: snapshot.id,
      },
    ],
    done: `Undid the last compression: ${back} message${back === 1 ? ' is' : 's are'} back in the context${undoneWords(undone)}.`,
  };
}

/** The snapshots undos restored so far. */
export function undoneSnapshots(state: SessionState): Set<string> {
  const ids = new Set<string>();
  for (const e of state.history) if (e.name === 'compression-undone' && e.snapshotId) ids.add(e.snapshotId);
  return ids;
}

function undoneWords(undone: readonly Checkpoint[]): string {
  if (undone.length === 0) return '';
  return `; the undone checkpoint (${undone.map((c) => c.range).join(', ')}) is kept and can be searched with /recover`;
}

/** True when the context was compressed after the snapshot: other checkpoints, or another watermark. */
function compressedSince(state: SessionState, snapshot: Snapshot): boolean {
  const key = (cs: readonly Checkpoint[]) => cs.map((c) => `${c.id}@${c.age}`).join(',');
  return key(state.checkpoints) !== key(snapshot.content.checkpoints) || state.watermark !== snapshot.content.watermark;
}
