/**
 * The session as the dashboard reads it: the read models of `engine/dashboard/` built from the
 * state and its request view, the full text of an item, and what an undo would take back.
 */
import { dashboardModel, type DashboardModel, type UndoTarget } from '../dashboard/dashboardModel';
import { itemText } from '../dashboard/itemText';
import { optionsForBudget, type EngineOptions } from '../options';
import type { Clock } from '../ports';
import type { TokenCounter } from '../tokens/counter';
import type { RequestRenderer } from './requestRenderer';
import type { SessionSnapshots } from './sessionSnapshots';
import type { SessionStateCell } from './stateCell';
import { snapshotToUndo } from './undoCompression';

/** How the host asks for a session's dashboard. */
export interface DashboardRequest {
  readonly budget: number;
  /** Tokens kept for the model's answer beside the budget. */
  readonly reserveTokens: number;
  /** How many items to list, largest first. @default 100 */
  readonly itemLimit?: number;
}

export interface SessionDashboardDeps {
  readonly cell: SessionStateCell;
  readonly renderer: RequestRenderer;
  readonly snapshots: SessionSnapshots;
  readonly counter: TokenCounter;
  readonly clock: Clock;
  /** The options as configured (before a budget caps them). */
  readonly options: EngineOptions;
  /** The budget of the latest request. */
  budget(): number;
}

/** Items listed when the host does not say. */
const DEFAULT_ITEM_LIMIT = 100;

export class SessionDashboard {
  private undoCache: { readonly key: string; readonly target: UndoTarget | undefined } | undefined;

  constructor(private readonly deps: SessionDashboardDeps) {}

  async model(request: DashboardRequest): Promise<DashboardModel> {
    const { cell, renderer, counter, clock, options } = this.deps;
    const state = cell.state;
    const view = await renderer.render(state, request.budget);
    const undo = await this.undoTarget();
    return dashboardModel(
      {
        state,
        view,
        blockTokens: (b) => counter.blockTokens(b),
        budget: request.budget,
        reserveTokens: request.reserveTokens,
        options: optionsForBudget(options, request.budget),
        now: clock.now(),
      },
      { itemLimit: request.itemLimit ?? DEFAULT_ITEM_LIMIT, ...(undo ? { undo } : {}), warnings: cell.warnings.map((w) => w.message) },
    );
  }

  async itemText(id: string): Promise<{ readonly title: string; readonly text: string } | undefined> {
    const state = this.deps.cell.state;
    return itemText(state, await this.deps.renderer.render(state, this.deps.budget()), id);
  }

  /** Looked for again only when the checkpoints, the watermark or the snapshots taken or undone changed: it reads snapshot files. */
  private async undoTarget(): Promise<UndoTarget | undefined> {
    const state = this.deps.cell.state;
    const snapshots = this.deps.snapshots;
    const key = [
      state.checkpoints.map((c) => `${c.id}@${c.age}`).join(','),
      state.watermark ?? '',
      state.history.reduce((n, e) => n + (e.snapshotId ? 1 : 0), 0),
    ].join('|');
    if (this.undoCache?.key !== key) {
      const found = await snapshotToUndo(state, { list: () => snapshots.list(), read: (id) => snapshots.read(id) }).catch(() => undefined);
      this.undoCache = { key, target: found ? { snapshotName: found.name, at: found.at } : undefined };
    }
    return this.undoCache.target;
  }
}
