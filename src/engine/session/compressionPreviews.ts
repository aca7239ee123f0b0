/**
 * The session's previewed compression: at most one waits to be applied or discarded. Applying it
 * takes the dry run's state as it was shown (see `compressionPreview.ts`), only if the session is
 * still at the state the preview started from.
 */
import type { Tier3 } from '../checkpoints/tier3';
import type { TurnOptions } from '../checkpoints/turnOptions';
import { usageOf } from '../budget';
import { errorMessage } from '../errors';
import { newId } from '../ids';
import { levelFor } from '../levels';
import { optionsForBudget, type EngineOptions } from '../options';
import type { Clock, Store, WorkspaceFiles } from '../ports';
import type { TokenCounter } from '../tokens/counter';
import { dryRunCompression, patchOf, previewOf, type CompressionPreview, type DryRun } from './compressionPreview';
import type { EditOutcome } from './itemEdit';
import { preparedContext } from './preparedContext';
import type { PreparedContext } from '../model/preparedContext';
import type { SessionArchive } from './sessionArchive';
import type { SessionHistory } from './sessionHistory';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionSearch } from './sessionSearch';
import type { SessionStateCell } from './stateCell';

export interface CompressionPreviewsDeps {
  readonly cell: SessionStateCell;
  readonly archive: SessionArchive;
  readonly tier3: Tier3;
  readonly history: SessionHistory;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly files: WorkspaceFiles;
  readonly clock: Clock;
  readonly paths: SessionPaths;
  readonly search: SessionSearch;
  /** The options as configured (before a budget caps them). */
  readonly options: EngineOptions;
}

/** A preview applied: what the request will be sent from now on. */
export interface AppliedPreview extends EditOutcome {
  readonly prepared?: PreparedContext;
}

export class CompressionPreviews {
  private pending: { readonly id: string; readonly run: DryRun; readonly budget: number } | undefined;

  constructor(private readonly deps: CompressionPreviewsDeps) {}

  /** Runs "Compress context" on a scratch copy of the state and keeps the result until it is applied or discarded. */
  async preview(budget: number, turn: TurnOptions): Promise<CompressionPreview> {
    const { cell, archive, store, counter, files, clock, paths, search, options } = this.deps;
    const run = await dryRunCompression(
      {
        state: cell.state,
        archive,
        store,
        counter,
        files,
        clock,
        paths,
        search,
        ledgerShares: options,
        options: () => optionsForBudget(options, budget),
      },
      budget,
      turn,
    );
    const id = newId('preview', clock.now());
    this.pending = { id, run, budget };
    return previewOf(id, run, (tokens) => {
      const usage = usageOf(tokens, budget);
      return { tokens, usage, level: levelFor(usage, options.thresholds) };
    });
  }

  /** Applies the preview with this id exactly as it was shown, if the context is still what it started from. */
  async apply(id: string): Promise<AppliedPreview> {
    const pending = this.pending;
    if (!pending || pending.id !== id) return { ok: false, message: 'That preview is no longer open: preview the compression again.' };
    this.pending = undefined;
    const { cell, tier3, history, options } = this.deps;
    const { run, budget } = pending;
    if (cell.state !== run.base) {
      return { ok: false, message: 'The context changed since the preview, so nothing was applied: preview the compression again.' };
    }
    try {
      await run.writes.flush();
    } catch (e) {
      return { ok: false, message: `The compression could not write its files (${errorMessage(e)}), so nothing was applied.` };
    }
    tier3.reset();
    cell.update(patchOf(run));
    for (const warning of run.warnings) cell.warn(warning);
    const prepared = preparedContext(run.preparation, budget, options.thresholds, cell.state.checkpoints.length);
    await history.recordRequest(prepared);
    return { ok: true, message: 'Compressed the context as previewed.', prepared };
  }

  /** Forgets the preview without applying it. */
  discard(): void {
    this.pending = undefined;
  }
}
