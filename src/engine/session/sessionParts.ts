/**
 * The parts of one session, built and wired together: each owns one thing (see `contextSession.ts`
 * for which), and each is handed the parts it works with. `ContextSession` builds them once and
 * hands every call to the part that owns it.
 */
import { Tier3 } from '../checkpoints/tier3';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';
import { optionsForBudget, type EngineOptions } from '../options';
import type { CallerFiles, Clock, Logger, Store, WorkspaceFiles } from '../ports';
import { sessionJournalOptions } from '../storage/sessionJournal';
import { StateJournal } from '../storage/stateJournal';
import type { TokenCounter } from '../tokens/counter';
import { CompressionPreviews } from './compressionPreviews';
import { ItemEditor } from './itemEditor';
import { LedgerCommands } from './ledgerCommands';
import { MessageIntake } from './messageIntake';
import { RequestPreparation } from './requestPreparation';
import { RequestRenderer } from './requestRenderer';
import { SessionArchive } from './sessionArchive';
import { SessionDashboard } from './sessionDashboard';
import { SessionHistory } from './sessionHistory';
import { SessionSearch } from './sessionSearch';
import { SessionSnapshots } from './sessionSnapshots';
import { SnapshotCommands } from './snapshotCommands';
import { SentRequests } from './sentRequests';
import { SessionStateCell, type StatePersistence } from './stateCell';

/** What a session is given by its host. */
export interface SessionDeps {
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly files: WorkspaceFiles;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Where the results a caller wrote to files are read from; without it such results stay the caller's note. */
  readonly callerFiles?: CallerFiles;
}

/** The parts of one session, each owning one thing. */
export interface SessionParts {
  readonly cell: SessionStateCell;
  readonly archive: SessionArchive;
  readonly intake: MessageIntake;
  readonly preparation: RequestPreparation;
  readonly tier3: Tier3;
  readonly snapshots: SessionSnapshots;
  readonly snapshotCommands: SnapshotCommands;
  readonly renderer: RequestRenderer;
  readonly history: SessionHistory;
  readonly editor: ItemEditor;
  readonly previews: CompressionPreviews;
  readonly dashboard: SessionDashboard;
  readonly ledger: LedgerCommands;
  readonly sent: SentRequests;
}

/**
 * Builds the parts of the session whose state starts as `initial` and is saved through `journal`.
 * `budget` is the budget of the latest request: work outside a request measures against it, and
 * the options in effect are the ones for it.
 */
export function sessionParts(
  initial: SessionState,
  paths: SessionPaths,
  options: EngineOptions,
  deps: SessionDeps,
  journal: StateJournal<SessionState>,
  budget: () => number,
): SessionParts {
  const cell = new SessionStateCell(initial, journalPersistence(journal), deps.clock, deps.logger);
  const parent = initial.parentSessionId === initial.id ? undefined : initial.parentSessionId;
  const archive = new SessionArchive(deps.store, paths, parent, {
    onRepair: (sideFile) =>
      cell.warn(
        `The end of the archive was cut short (a crash or a full disk); that part was kept in ${sideFile}, and nothing else changed.`,
      ),
  });
  const renderer = new RequestRenderer(deps.counter, options);
  const effectiveOptions = () => optionsForBudget(options, budget());
  const search = new SessionSearch(deps.store, initial.id, paths);
  const parts = { cell, archive, paths, search, ...deps, options: effectiveOptions };
  const intake = new MessageIntake({ ...parts, budget });
  const tier3 = new Tier3({ ...parts, state: () => cell.state });
  const snapshots = new SessionSnapshots(deps.store, initial.id, deps.clock);
  const sent = new SentRequests({ cell, counter: deps.counter });
  const preparation = new RequestPreparation({
    ...parts,
    sent,
    renderer,
    tier3,
    snapshots,
    offloadedFacts: () => intake.takeOffloadedFacts(),
  });
  const history = new SessionHistory(parts);
  const shared = { ...parts, renderer, tier3, snapshots, history, budget };
  return {
    cell,
    archive,
    intake,
    preparation,
    tier3,
    snapshots,
    renderer,
    history,
    editor: new ItemEditor(shared),
    previews: new CompressionPreviews({ ...shared, options }),
    dashboard: new SessionDashboard({ ...shared, options }),
    ledger: new LedgerCommands({ cell, clock: deps.clock }),
    snapshotCommands: new SnapshotCommands(shared),
    sent,
  };
}

/** A new journal for a new session's state. */
export function newSessionJournal(id: string, deps: SessionDeps): StateJournal<SessionState> {
  return StateJournal.create(sessionJournalOptions(id, { store: deps.store, clock: deps.clock }));
}

/** The state saved through its journal: each save appends only what changed. */
function journalPersistence(journal: StateJournal<SessionState>): StatePersistence {
  return { write: async (state) => void (await journal.save(state)) };
}
