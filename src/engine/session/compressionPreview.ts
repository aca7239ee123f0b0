/**
 * A compression previewed before it applies: "Compress context" runs on a scratch copy of the
 * session's state, with the same steps in the same order (the request preparation's own code), and
 * with no side effect. The scratch state cell writes nothing, the files the run would write (the
 * snapshot before it, huge user messages moved to files) stay in an overlay store, its logger is
 * silent and its checkpoint preparation its own. What it produced is shown; applying it takes the
 * scratch state as it is (the summary shown is the one applied) and flushes the overlay, provided
 * the session's state is still the one the preview started from.
 */
import { Tier3 } from '../checkpoints/tier3';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { Checkpoint } from '../model/checkpoint';
import type { CompressionEvent } from '../model/compressionEvent';
import type { ContextFigures } from '../model/preparedContext';
import type { EngineOptions, LedgerShares } from '../options';
import { silentLogger, type Clock, type Store, type WorkspaceFiles } from '../ports';
import { OverlayStore } from '../storage/overlayStore';
import type { TokenCounter } from '../tokens/counter';
import { RequestPreparation, type Preparation } from './requestPreparation';
import { RequestRenderer } from './requestRenderer';
import type { SessionArchive } from './sessionArchive';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionSearch } from './sessionSearch';
import { SessionSnapshots } from './sessionSnapshots';
import type { SessionState } from '../model/sessionState';
import { SentRequests } from './sentRequests';
import { SessionStateCell } from './stateCell';

export interface DryRunParts {
  readonly state: SessionState;
  /** Read for the originals; a dry run never appends to it. */
  readonly archive: SessionArchive;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly files: WorkspaceFiles;
  readonly clock: Clock;
  readonly paths: SessionPaths;
  /** The session's own search: the recall check of the previewed checkpoint reads the same originals. */
  readonly search: SessionSearch;
  readonly ledgerShares: LedgerShares;
  options(): EngineOptions;
}

/** What a dry run produced, kept until it is applied or discarded. */
export interface DryRun {
  /** The state the run started from: applying requires the session to be still at it. */
  readonly base: SessionState;
  /** The scratch state after the run. */
  readonly state: SessionState;
  readonly preparation: Preparation;
  readonly warnings: readonly string[];
  /** The files the run wrote, held back until the run is applied. */
  readonly writes: OverlayStore;
}

/** Runs "Compress context" on a scratch copy of the state. */
export async function dryRunCompression(parts: DryRunParts, budget: number, turn: TurnOptions): Promise<DryRun> {
  const { state, archive, counter, files, clock, paths } = parts;
  const writes = new OverlayStore(parts.store);
  const cell = new SessionStateCell(state, { write: () => Promise.resolve() }, clock, silentLogger, true);
  const tier3 = new Tier3({
    state: () => cell.state,
    options: parts.options,
    archive,
    store: writes,
    counter,
    clock,
    logger: silentLogger,
    paths,
    search: parts.search,
  });
  try {
    const preparation = await new RequestPreparation({
      cell,
      archive,
      renderer: new RequestRenderer(counter, parts.ledgerShares),
      tier3,
      // The preview compresses what is there: no result arrives during it.
      offloadedFacts: () => [],
      snapshots: new SessionSnapshots(writes, state.id, clock),
      files,
      store: writes,
      counter,
      clock,
      logger: silentLogger,
      paths,
      // A preview sends nothing: its summary request is counted as read in full.
      sent: new SentRequests({ cell, counter }),
      options: parts.options,
    }).compressNow(budget, turn);
    return { base: state, state: cell.state, preparation, warnings: cell.warnings.map((w) => w.message), writes };
  } finally {
    tier3.dispose();
    cell.dispose();
  }
}

/** A previewed compression as it is shown: before and after, what each step would do, the new checkpoint. */
export interface CompressionPreview {
  readonly id: string;
  /** What the next request sends before and after, earlier lines and all (like with like). */
  readonly before: ContextFigures;
  readonly after: ContextFigures;
  /** The earlier lines within `after`, named apart. */
  readonly earlierTokens: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly events: readonly CompressionEvent[];
  /** The checkpoint the compression would make, with its summary. */
  readonly checkpoint?: Checkpoint;
  /** Older checkpoints it would age, as they would become. */
  readonly aged: readonly Checkpoint[];
  readonly warnings: readonly string[];
}

/** The preview of a dry run, given the figures of its views. */
export function previewOf(id: string, run: DryRun, figures: (tokens: number) => ContextFigures): CompressionPreview {
  const { view, before } = run.preparation;
  const was = new Map(run.base.checkpoints.map((c) => [c.id, c]));
  const created = run.state.checkpoints.find((c) => !was.has(c.id) && c.age === 0);
  const aged = run.state.checkpoints.filter((c) => c !== created && was.get(c.id) !== c);
  return {
    id,
    before: figures(before.measured.total),
    after: figures(view.measured.total),
    earlierTokens: view.earlierTokens,
    messagesBefore: run.base.active.length,
    messagesAfter: run.state.active.length,
    events: run.preparation.events,
    ...(created ? { checkpoint: created } : {}),
    aged,
    warnings: run.warnings,
  };
}

/** The patch that makes a session's state the dry run's result (its history is recorded with the events, apart). */
export function patchOf(run: DryRun): Partial<SessionState> {
  const { schema: _schema, id: _id, createdAt: _createdAt, updatedAt: _updatedAt, history: _history, ...rest } = run.state;
  return rest;
}
