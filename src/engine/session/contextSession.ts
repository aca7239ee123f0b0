/**
 * A managed conversation: the archive (everything), the active context (what the model sees) and
 * the tiers that keep the active context inside the budget. The session wires its parts together
 * and is the host's one entry point; each part owns one thing:
 *
 * - the state cell owns the state (`stateCell.ts`),
 * - the archive owns what was said (`sessionArchive.ts`),
 * - the intake takes messages in: archive first, then tier 1 and the ledger (`messageIntake.ts`),
 * - the preparation runs the steps before a request, in order (`requestPreparation.ts`),
 * - Tier 3 makes checkpoints (`../checkpoints/tier3.ts`), snapshots are kept by `sessionSnapshots.ts`,
 * - the history records what was done and the timeline of requests (`sessionHistory.ts`),
 * - the item editor pins, drops and offloads items and undoes a compression (`itemEditor.ts`),
 * - the previews run a compression on a scratch copy before it applies (`compressionPreviews.ts`),
 * - the dashboard reads the session for the dashboard (`sessionDashboard.ts`).
 *
 * Longer than 350 lines because it is the whole surface hosts call: each public method is a few
 * lines handing the work to the part above that owns it, and opening a stored session (which must
 * archive what the last run owed before anything else) is here because only the session has every part.
 */
import type { Checkpoint } from '../model/checkpoint';
import { Tier3 } from '../checkpoints/tier3';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { CompressionEvent } from '../model/compressionEvent';
import type { DashboardModel } from '../dashboard/dashboardModel';
import { newId } from '../ids';
import { addDecision, addGoal, completeGoal } from '../ledger/ledgerUpdate';
import { withInstructions } from '../ledger/instructions';
import type { InstructionEntry, Ledger } from '../model/ledgerTypes';
import { optionsForBudget, type EngineOptions } from '../options';
import type { Clock, Logger, Store, WorkspaceFiles } from '../ports';
import { recallConfidence, sumRecallFigures } from '../model/recallFigures';
import { reliabilityFor, type Reliability } from '../reliability';
import type { Snapshot, SnapshotSummary } from '../snapshots/snapshot';
import type { OffloadRecord } from '../model/offloadRecord';
import type { TokenCounter } from '../tokens/counter';
import type { Message } from '../types';
import type { CompressionPreview } from './compressionPreview';
import { CompressionPreviews, type AppliedPreview } from './compressionPreviews';
import type { EditOutcome } from './itemEdit';
import { ItemEditor } from './itemEditor';
import { MessageIntake } from './messageIntake';
import { preparedContext } from './preparedContext';
import type { PreparedContext } from '../model/preparedContext';
import { RequestPreparation, type Preparation } from './requestPreparation';
import { RequestRenderer } from './requestRenderer';
import { SessionArchive } from './sessionArchive';
import { SessionDashboard, type DashboardRequest } from './sessionDashboard';
import { SessionHistory } from './sessionHistory';
import { appendSessionLog } from './sessionLog';
import { newSessionId, sessionPaths, type SessionPaths } from '../model/sessionPaths';
import { SessionSearch } from './sessionSearch';
import { SessionSnapshots } from './sessionSnapshots';
import { emptyState, type SessionState } from '../model/sessionState';
import { SessionStateCell, type SessionWarning, type StatePersistence } from './stateCell';
import { errorMessage } from '../errors';
import { loadSession } from './sessionLoad';
import { sessionJournalOptions } from '../storage/sessionJournal';
import { StateJournal } from '../storage/stateJournal';

export interface SessionDeps {
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly files: WorkspaceFiles;
  readonly logger: Logger;
  readonly clock: Clock;
}

export type { DashboardRequest } from './sessionDashboard';
export type { TurnOptions } from '../checkpoints/turnOptions';
export type { SessionChange, SessionWarning } from './stateCell';

export class ContextSession {
  readonly paths: SessionPaths;
  /** Fires whenever the active context, the offloads, the ledger or the warnings change. */
  readonly onDidChange: SessionStateCell['onDidChange'];
  private readonly cell: SessionStateCell;
  private readonly archive: SessionArchive;
  private readonly intake: MessageIntake;
  private readonly preparation: RequestPreparation;
  private readonly tier3: Tier3;
  private readonly snapshots: SessionSnapshots;
  private readonly renderer: RequestRenderer;
  private readonly history: SessionHistory;
  private readonly editor: ItemEditor;
  private readonly previews: CompressionPreviews;
  private readonly dashboardReader: SessionDashboard;
  /** The budget of the latest request; work outside a request measures against it. */
  private budgetUsed = 0;

  private constructor(
    initial: SessionState,
    private readonly options: EngineOptions,
    private readonly deps: SessionDeps,
    journal: StateJournal<SessionState>,
  ) {
    this.paths = sessionPaths(initial.id);
    this.cell = new SessionStateCell(initial, journalPersistence(journal), deps.clock, deps.logger);
    this.onDidChange = this.cell.onDidChange;
    const parent = initial.parentSessionId === initial.id ? undefined : initial.parentSessionId;
    this.archive = new SessionArchive(deps.store, this.paths, parent, {
      onRepair: (sideFile) =>
        this.cell.warn(
          `The end of the archive was cut short (a crash or a full disk); that part was kept in ${sideFile}, and nothing else changed.`,
        ),
    });
    this.renderer = new RequestRenderer(deps.counter, options.ledgerShare);
    const effectiveOptions = () => optionsForBudget(this.options, this.budgetUsed);
    const search = new SessionSearch(deps.store, initial.id, this.paths);
    const parts = { cell: this.cell, archive: this.archive, paths: this.paths, search, ...deps, options: effectiveOptions };
    this.intake = new MessageIntake({ ...parts, budget: () => this.budgetUsed });
    this.tier3 = new Tier3({ ...parts, state: () => this.cell.state });
    this.snapshots = new SessionSnapshots(deps.store, initial.id, deps.clock);
    this.preparation = new RequestPreparation({
      ...parts,
      renderer: this.renderer,
      tier3: this.tier3,
      snapshots: this.snapshots,
      offloadedFacts: () => this.intake.takeOffloadedFacts(),
    });
    this.history = new SessionHistory(parts);
    const budget = () => this.budgetUsed;
    const shared = { ...parts, renderer: this.renderer, tier3: this.tier3, snapshots: this.snapshots, history: this.history, budget };
    this.editor = new ItemEditor(shared);
    this.previews = new CompressionPreviews({ ...shared, options });
    this.dashboardReader = new SessionDashboard({ ...shared, options });
  }

  /** Starts a new, empty session. */
  static create(options: EngineOptions, deps: SessionDeps, id = newSessionId(deps.clock.now())): ContextSession {
    return new ContextSession(emptyState(id, deps.clock.now()), options, deps, newJournal(id, deps));
  }

  /**
   * Starts a fresh session from another one (the CRITICAL rollover): it begins with the parent's
   * ledger and checkpoints and no live messages, and its archive reads through to the parent's,
   * so recovery and aging still reach every original.
   */
  static createFresh(
    parent: ContextSession,
    options: EngineOptions,
    deps: SessionDeps,
    id = newSessionId(deps.clock.now()),
  ): ContextSession {
    const p = parent.state;
    return new ContextSession(
      {
        ...emptyState(id, deps.clock.now()),
        title: p.title,
        ledger: p.ledger,
        checkpoints: p.checkpoints,
        offloads: p.offloads,
        parentSessionId: p.id,
      },
      options,
      deps,
      newJournal(id, deps),
    );
  }

  /**
   * Opens a stored session: its state from the base and the journal, the messages archived after
   * the last save taken in, messages the archive is missing appended first. A state that cannot
   * be used is moved aside and the session rebuilt from the archive and the latest snapshot; the
   * user is told what was and was not recovered. Undefined when nothing is stored.
   */
  static async open(id: string, options: EngineOptions, deps: SessionDeps): Promise<ContextSession | undefined> {
    const loaded = await loadSession(id, { store: deps.store, clock: deps.clock });
    if (!loaded) return undefined;
    const session = new ContextSession(loaded.state, options, deps, loaded.journal);
    const owed = new Set(loaded.unarchived.map((m) => m.id));
    const owedNow = loaded.unarchived.filter((m) => !loaded.unreconciled.some((u) => u.id === m.id));
    session.archive.owe(owedNow);
    if (loaded.archiveReplaced) session.cell.update({ archivedCount: 0 });
    // Archived at once, not with the next message: a later rebuild from the archive must have them.
    const outcome =
      owedNow.length === 0
        ? undefined
        : await session.archive.append([]).then((written) => {
            session.cell.update({ archivedCount: session.cell.state.archivedCount + written });
            return undefined;
          }, errorMessage);
    const owedWords = owedNow.length === 0 ? undefined : owedOutcome(owedNow.length, outcome);
    const notice = [loaded.notice, owedWords].filter((s) => s !== undefined).join(' ');
    if (notice) session.cell.warn(notice);
    const archived = loaded.unreconciled.filter((m) => !owed.has(m.id));
    const toArchive = loaded.unreconciled.filter((m) => owed.has(m.id));
    if (archived.length > 0) await session.intake.add(archived, true);
    if (toArchive.length > 0) await session.intake.add(toArchive);
    await session.cell.save();
    return session;
  }

  get id(): string {
    return this.cell.state.id;
  }

  get title(): string {
    return this.cell.state.title;
  }

  /** The live messages of the active context (the context message with the ledger and checkpoints goes before them). */
  get messages(): readonly Message[] {
    return this.cell.state.active;
  }

  get offloads(): readonly OffloadRecord[] {
    return this.cell.state.offloads;
  }

  get ledger(): Ledger {
    return this.cell.state.ledger;
  }

  get checkpoints(): readonly Checkpoint[] {
    return this.cell.state.checkpoints;
  }

  /** The background checkpoint preparation's state: idle, preparing, ready, applying, failed or cancelled. */
  get backgroundCheckpointState(): string {
    return this.tier3.backgroundCheckpointState;
  }

  /** The persisted state as it stands. */
  get state(): SessionState {
    return this.cell.state;
  }

  get warnings(): readonly SessionWarning[] {
    return this.cell.warnings;
  }

  /** True when every message that entered the session is in the archive. */
  get archiveComplete(): boolean {
    return this.archive.complete;
  }

  archiveLocation(): string {
    return this.archive.locate();
  }

  /** Every archived message, the parent session's first when this one was started fresh from it. */
  async readArchive(): Promise<Message[]> {
    return [...(await this.archive.read()).messages];
  }

  /** Resolves when background checkpoint work has settled (replays wait, so their results repeat). */
  whenPreparationSettled(): Promise<void> {
    return this.tier3.settled();
  }

  /**
   * Adds messages: archives them first, then offloads large tool results (tier 1, on arrival); what
   * tier 1 did joins the session log. A call to one of the checkpoint tools asks for a checkpoint,
   * resolved on the next request.
   */
  async add(messages: readonly Message[]): Promise<CompressionEvent[]> {
    const events = await this.intake.add(messages);
    await appendSessionLog(this.deps.store, this.paths, events, this.deps.logger);
    // Saved at once (a journal line), so a crash never leaves the state a round behind the archive.
    await this.cell.save();
    return events;
  }

  /** Asks for a checkpoint at the next call of this tool (design §3.4); resolved on the next request. */
  requestCheckpoint(toolName: string): void {
    this.cell.update({ pendingCheckpointTool: toolName });
  }

  /** Prepares the next request (see `requestPreparation.ts` for the steps, in order). */
  async prepare(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    return this.finish(await this.preparation.beforeRequest(budget, turn), budget);
  }

  /** Measures the context as it stands, changing nothing (e.g. after the model's answer joined it). */
  async measure(budget: number): Promise<PreparedContext> {
    this.budgetUsed = budget;
    const view = await this.renderer.render(this.cell.state, budget);
    return this.prepared({ view, before: view, events: [] }, budget);
  }

  /**
   * "Compress context": truncates every verified input outside the recent messages, moves the
   * watermark to the last tool call before them, and summarizes everything but the latest
   * messages into a checkpoint (Tier 3), with the model when one is given. Cancelling leaves the
   * context as it was.
   */
  async compress(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    return this.finish(await this.preparation.compressNow(budget, turn), budget);
  }

  /** Summarizes every message into a checkpoint, the step before starting a fresh session from it. */
  async checkpointEverything(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    return this.finish(await this.preparation.checkpointEverything(budget, turn), budget);
  }

  /** Adds an active goal (`/goal`). Goals are never summarized. */
  async addGoal(text: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.changeLedger(addGoal(this.cell.state.ledger, text, 'command', now, newId('g', now)));
  }

  /** Marks a goal completed, by id or by its text. */
  async completeGoal(idOrText: string): Promise<boolean> {
    const next = completeGoal(this.cell.state.ledger, idOrText, this.deps.clock.now());
    if (next === this.cell.state.ledger) return false;
    await this.changeLedger(next);
    return true;
  }

  /** Adds a locked decision (`/decide`). Locked decisions are never summarized. */
  async addDecision(text: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.changeLedger(addDecision(this.cell.state.ledger, text, 'command', now, newId('d', now)));
  }

  /** Keeps these workspace instructions in the ledger, in place of the ones it held; true when they changed. */
  async setInstructions(entries: readonly InstructionEntry[]): Promise<boolean> {
    const next = withInstructions(this.cell.state.ledger, entries);
    if (next === this.cell.state.ledger) return false;
    await this.changeLedger(next);
    return true;
  }

  /** Takes a named snapshot of exactly what the model sees. */
  async createSnapshot(name?: string): Promise<SnapshotSummary | undefined> {
    const view = await this.renderer.render(this.cell.state, this.budgetUsed);
    const taken = await this.snapshots.take('manual', name, this.cell.state, view.measured.total);
    await this.record(taken.events ?? [], taken.warnings ?? []);
    return taken.summary;
  }

  /** Snapshots of this session, newest first. */
  listSnapshots(): Promise<SnapshotSummary[]> {
    return this.snapshots.list();
  }

  /** Restores a snapshot by id or name; undefined when there is none. The current state is snapshotted first. */
  async restoreSnapshot(idOrName: string): Promise<Snapshot | undefined> {
    const snapshot = await this.snapshots.read(idOrName);
    if (!snapshot) return undefined;
    this.tier3.reset();
    const view = await this.renderer.render(this.cell.state, this.budgetUsed);
    const before = await this.snapshots.take('before-restore', undefined, this.cell.state, view.measured.total);
    const restoring = this.snapshots.restoring(snapshot);
    if (restoring.patch) this.cell.update(restoring.patch);
    await this.record([...(before.events ?? []), ...(restoring.events ?? [])], before.warnings ?? []);
    return snapshot;
  }

  /** The reliability score (design §9) for the model in use; the context confidence comes from the last drift check and the checkpoints' recall checks. */
  reliability(model: string | undefined): Reliability {
    const s = this.cell.state;
    const recalls = s.checkpoints.flatMap((c) => (c.recall ? [c.recall] : []));
    return reliabilityFor({
      model,
      checkpointsMade: s.checkpointsMade,
      contextConfidence: s.contextConfidence,
      ...(recalls.length > 0 ? { recallConfidence: recallConfidence(sumRecallFigures(recalls)) } : {}),
    });
  }

  /**
   * Deletes an offloaded file at the user's request. The context keeps its preview and the archive
   * keeps the full result, so nothing of the conversation is lost.
   */
  async deleteOffloaded(file: string): Promise<void> {
    const offloads = this.cell.state.offloads;
    if (!offloads.some((o) => o.file === file)) return;
    await this.deps.store.remove(file);
    this.cell.update({ offloads: offloads.filter((o) => o.file !== file) });
    await this.cell.save();
    this.cell.changed('compressed');
  }

  /**
   * Everything the dashboard shows of this session (see `engine/dashboard/`): the composition of the
   * budget, the items largest first, the timeline, the checkpoints and what an undo would take back.
   */
  dashboard(request: DashboardRequest): Promise<DashboardModel> {
    return this.dashboardReader.model(request);
  }

  /** The full text of an item of the context (see `engine/dashboard/itemIds.ts`); undefined when it is no longer there. */
  itemText(id: string): Promise<{ readonly title: string; readonly text: string } | undefined> {
    return this.dashboardReader.itemText(id);
  }

  /** Pins a message or a tool result: the ledger keeps it verbatim through every compression. */
  pin(id: string): Promise<EditOutcome> {
    return this.editor.pin(id);
  }

  /** Unpins an item (by its id, or its pinned entry's id). */
  unpin(id: string): Promise<EditOutcome> {
    return this.editor.unpin(id);
  }

  /** Drops an item from the context; the archive keeps it, and a tool call and its result go together. */
  drop(id: string): Promise<EditOutcome> {
    return this.editor.drop(id);
  }

  /** Offloads a tool result to a file now, leaving a preview and the path (tier 1's mechanism). */
  offloadNow(id: string): Promise<EditOutcome> {
    return this.editor.offloadNow(id);
  }

  /**
   * Undoes the last compression: the snapshot taken before it is restored, with the messages that
   * arrived since and the ledger as it is now. A snapshot of the current state is taken first, and
   * the undone checkpoint is kept among the retired ones, where it can be searched.
   */
  undoLastCompression(): Promise<EditOutcome> {
    return this.editor.undoLastCompression();
  }

  /**
   * Previews "Compress context": the same steps run on a scratch copy of the state, with no side
   * effect, and what they would do is returned. Apply it with `applyCompressionPreview`.
   */
  previewCompression(budget: number, turn: TurnOptions = {}): Promise<CompressionPreview> {
    this.budgetUsed = budget;
    return this.previews.preview(budget, turn);
  }

  /** Applies a previewed compression exactly as shown, if the context is still what the preview started from. */
  applyCompressionPreview(id: string): Promise<AppliedPreview> {
    return this.previews.apply(id);
  }

  /** Forgets a previewed compression without applying it. */
  discardCompressionPreview(): void {
    this.previews.discard();
  }

  /** Writes the state if it changed. A failure is reported, not thrown: the conversation goes on in memory. */
  save(): Promise<void> {
    return this.cell.save();
  }

  dispose(): void {
    this.tier3.dispose();
    this.cell.dispose();
  }

  private async finish(preparation: Preparation, budget: number): Promise<PreparedContext> {
    const prepared = this.prepared(preparation, budget);
    await this.history.recordRequest(prepared);
    return prepared;
  }

  /** What was done joins the history and the session log; the state is saved. */
  private record(events: readonly CompressionEvent[], warnings: readonly string[]): Promise<void> {
    return this.history.record(events, warnings);
  }

  private prepared(p: Pick<Preparation, 'view' | 'before' | 'events' | 'critical'>, budget: number): PreparedContext {
    return preparedContext(p, budget, this.options.thresholds, this.cell.state.checkpoints.length);
  }

  private async changeLedger(ledger: Ledger): Promise<void> {
    if (ledger === this.cell.state.ledger) return;
    this.cell.update({ ledger });
    await this.cell.save();
    this.cell.changed('ledger');
  }
}

function newJournal(id: string, deps: SessionDeps): StateJournal<SessionState> {
  return StateJournal.create(sessionJournalOptions(id, { store: deps.store, clock: deps.clock }));
}

/** What became of the messages the archive was missing, once archiving them was tried at open. */
function owedOutcome(count: number, failure: string | undefined): string {
  const them = count === 1 ? 'The message missing from the archive' : `The ${count} messages missing from the archive`;
  if (failure === undefined) return `${them} ${count === 1 ? 'is' : 'are'} archived now.`;
  return (
    `${them} could not be archived yet (${failure}); ${count === 1 ? 'it stays' : 'they stay'} in the context and ` +
    `${count === 1 ? 'is' : 'are'} archived before the next message.`
  );
}

/** The state saved through its journal: each save appends only what changed. */
function journalPersistence(journal: StateJournal<SessionState>): StatePersistence {
  return { write: async (state) => void (await journal.save(state)) };
}
