/**
 * Edits of single items of the context at the user's request: pin, unpin, drop, offload now,
 * deleting an offloaded file, and undoing the last compression. Each edit is computed from the state as it stands (the edit's own
 * file), then applied here through the state cell and recorded like the steps of a request.
 */
import type { Tier3 } from '../checkpoints/tier3';
import type { Clock, Store } from '../ports';
import type { TokenCounter } from '../tokens/counter';
import { dropItem } from './dropItem';
import type { EditOutcome, ItemEdit } from './itemEdit';
import { offloadItem } from './offloadItem';
import { pinItem, unpinItem } from './pinItem';
import type { RequestRenderer } from './requestRenderer';
import type { SessionArchive } from './sessionArchive';
import type { SessionHistory } from './sessionHistory';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionSnapshots } from './sessionSnapshots';
import type { SessionStateCell } from './stateCell';
import { snapshotToUndo, undoCompression } from './undoCompression';

export interface ItemEditorDeps {
  readonly cell: SessionStateCell;
  readonly renderer: RequestRenderer;
  readonly snapshots: SessionSnapshots;
  readonly tier3: Tier3;
  readonly archive: SessionArchive;
  readonly history: SessionHistory;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly clock: Clock;
  readonly paths: SessionPaths;
  /** The budget of the latest request, which edits are measured against. */
  budget(): number;
}

export class ItemEditor {
  constructor(private readonly deps: ItemEditorDeps) {}

  async pin(id: string): Promise<EditOutcome> {
    const { cell, counter, clock } = this.deps;
    return this.apply(await pinItem(cell.state, id, { countText: (t) => counter.countText(t), now: clock.now() }), 'ledger');
  }

  unpin(id: string): Promise<EditOutcome> {
    return this.apply(unpinItem(this.deps.cell.state, id), 'ledger');
  }

  drop(id: string): Promise<EditOutcome> {
    return this.apply(dropItem(this.deps.cell.state, id, this.deps.clock.now()));
  }

  async offloadNow(id: string): Promise<EditOutcome> {
    const { cell, store, counter, clock, paths, archive } = this.deps;
    return this.apply(
      await offloadItem(cell.state, id, {
        store,
        folder: paths.offloaded,
        archiveComplete: archive.complete,
        countText: (t) => counter.countText(t),
        estimated: counter.estimated,
        now: clock.now(),
      }),
    );
  }

  /**
   * Deletes an offloaded file. The context keeps its preview and the archive keeps the full result,
   * so nothing of the conversation is lost.
   */
  async deleteOffloaded(file: string): Promise<void> {
    const { cell, store } = this.deps;
    const offloads = cell.state.offloads;
    if (!offloads.some((o) => o.file === file)) return;
    await store.remove(file);
    cell.update({ offloads: offloads.filter((o) => o.file !== file) });
    await cell.save();
    cell.changed('compressed');
  }

  /** Restores the snapshot taken before the last compression, after a snapshot of the state as it is. */
  async undoLastCompression(): Promise<EditOutcome> {
    const { cell, snapshots, tier3, renderer, clock } = this.deps;
    const state = cell.state;
    const edit = undoCompression(state, await snapshotToUndo(state, snapshots), clock.now());
    if (edit.problem) return { ok: false, message: edit.problem };
    tier3.reset();
    const view = await renderer.render(state, this.deps.budget());
    const before = await snapshots.take('before-restore', undefined, state, view.measured.total);
    return this.apply({
      ...edit,
      events: [...(before.events ?? []), ...(edit.events ?? [])],
      warnings: [...(before.warnings ?? []), ...(edit.warnings ?? [])],
    });
  }

  /** Applies an edit: its patch, its events (a drop saves what the context lost), the state saved and the listeners told. */
  private async apply(edit: ItemEdit, change: 'ledger' | 'compressed' = 'compressed'): Promise<EditOutcome> {
    if (edit.problem) return { ok: false, message: edit.problem };
    const { cell, renderer, history } = this.deps;
    let events = edit.events ?? [];
    if (edit.patch && Object.keys(edit.patch).length > 0) {
      const before = (await renderer.render(cell.state, this.deps.budget())).measured.total;
      // The user changed what the context holds: the next request renders the context message anew (a rebase).
      cell.update({ ...edit.patch, frozenContext: undefined });
      const after = (await renderer.render(cell.state, this.deps.budget())).measured.total;
      events = events.map((e) => (e.kind === 'drop' ? { ...e, savedTokens: Math.max(0, before - after) } : e));
      if (events.length === 0) cell.changed(change);
    }
    await history.record(events, edit.warnings ?? []);
    return { ok: true, message: edit.done ?? 'Done.' };
  }
}
