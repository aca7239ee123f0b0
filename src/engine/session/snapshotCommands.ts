/**
 * Snapshots at the user's request: take a named one of exactly what the model sees, list them,
 * and restore one (the state as it is snapshotted first). What each did joins the history.
 */
import type { Tier3 } from '../checkpoints/tier3';
import type { Snapshot, SnapshotSummary } from '../snapshots/snapshot';
import type { RequestRenderer } from './requestRenderer';
import type { SessionHistory } from './sessionHistory';
import type { SessionSnapshots } from './sessionSnapshots';
import type { SessionStateCell } from './stateCell';

export interface SnapshotCommandsDeps {
  readonly cell: SessionStateCell;
  readonly renderer: RequestRenderer;
  readonly snapshots: SessionSnapshots;
  readonly tier3: Tier3;
  readonly history: SessionHistory;
  /** The budget of the latest request, which a snapshot's size is measured against. */
  budget(): number;
}

/** Takes, lists and restores the session's snapshots on request. */
export class SnapshotCommands {
  constructor(private readonly deps: SnapshotCommandsDeps) {}

  /** Takes a named snapshot of exactly what the model sees. */
  async take(name?: string): Promise<SnapshotSummary | undefined> {
    const { cell, renderer, snapshots, history } = this.deps;
    const view = await renderer.render(cell.state, this.deps.budget());
    const taken = await snapshots.take('manual', name, cell.state, view.measured.total);
    await history.record(taken.events ?? [], taken.warnings ?? []);
    return taken.summary;
  }

  /** Snapshots of this session, newest first. */
  list(): Promise<SnapshotSummary[]> {
    return this.deps.snapshots.list();
  }

  /** Restores a snapshot by id or name; undefined when there is none. The current state is snapshotted first. */
  async restore(idOrName: string): Promise<Snapshot | undefined> {
    const { cell, renderer, snapshots, tier3, history } = this.deps;
    const snapshot = await snapshots.read(idOrName);
    if (!snapshot) return undefined;
    tier3.reset();
    const view = await renderer.render(cell.state, this.deps.budget());
    const before = await snapshots.take('before-restore', undefined, cell.state, view.measured.total);
    const restoring = snapshots.restoring(snapshot);
    if (restoring.patch) cell.update({ ...restoring.patch, frozenContext: undefined });
    await history.record([...(before.events ?? []), ...(restoring.events ?? [])], before.warnings ?? []);
    return snapshot;
  }
}
