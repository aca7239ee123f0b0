/**
 * A managed conversation: the archive (everything), the active context (what the model sees) and
 * the tiers that keep the active context inside the budget. The session is the host's one entry
 * point: each method hands the work to the part that owns it (built in `sessionParts.ts`):
 *
 * - the state cell owns the state (`stateCell.ts`),
 * - the archive owns what was said (`sessionArchive.ts`),
 * - the intake takes messages in: archive first, then tier 1 and the ledger (`messageIntake.ts`),
 * - the preparation runs the steps before a request, in order (`requestPreparation.ts`),
 * - Tier 3 makes checkpoints (`../checkpoints/tier3.ts`), snapshots are kept by `sessionSnapshots.ts`
 *   and taken or restored on request by `snapshotCommands.ts`,
 * - the history records what was done and the timeline of requests (`sessionHistory.ts`),
 * - the item editor pins, drops and offloads items and undoes a compression (`itemEditor.ts`),
 * - the ledger commands add goals and decisions and keep the instructions (`ledgerCommands.ts`),
 * - the previews run a compression on a scratch copy before it applies (`compressionPreviews.ts`),
 * - the dashboard reads the session for the dashboard (`sessionDashboard.ts`),
 * - and a stored session is caught up as it opens (`openedSession.ts`).
 */
import type { Checkpoint } from '../model/checkpoint';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { CompressionEvent } from '../model/compressionEvent';
import type { DashboardModel } from '../dashboard/dashboardModel';
import type { InstructionEntry, Ledger } from '../model/ledgerTypes';
import type { EngineOptions } from '../options';
import type { Reliability } from '../activity/reliability';
import type { Snapshot, SnapshotSummary } from '../snapshots/snapshot';
import type { OffloadRecord } from '../model/offloadRecord';
import type { Message } from '../types';
import type { RequestReuse } from '../model/cacheTally';
import type { CompressionPreview } from './compressionPreview';
import type { AppliedPreview } from './compressionPreviews';
import type { EditOutcome } from './itemEdit';
import { catchUpOpened } from './openedSession';
import { preparedContext } from './preparedContext';
import type { PreparedContext } from '../model/preparedContext';
import type { Preparation } from './requestPreparation';
import type { DashboardRequest } from './sessionDashboard';
import { appendSessionLog } from './sessionLog';
import { newSessionId, sessionPaths, type SessionPaths } from '../model/sessionPaths';
import { newSessionJournal, sessionParts, type SessionDeps, type SessionParts } from './sessionParts';
import { emptyState, type SessionState } from '../model/sessionState';
import type { SessionStateCell, SessionWarning } from './stateCell';
import { loadSession } from './sessionLoad';
import { sessionReliability } from './sessionReliability';
import type { StateJournal } from '../storage/stateJournal';

export type { DashboardRequest } from './sessionDashboard';
export type { TurnOptions } from '../checkpoints/turnOptions';
export type { SessionChange, SessionWarning } from './stateCell';
export type { SessionDeps } from './sessionParts';

export class ContextSession {
  readonly paths: SessionPaths;
  /** Fires whenever the active context, the offloads, the ledger or the warnings change. */
  readonly onDidChange: SessionStateCell['onDidChange'];
  private readonly parts: SessionParts;
  /** The budget of the latest request; work outside a request measures against it. */
  private budgetUsed = 0;

  private constructor(
    initial: SessionState,
    private readonly options: EngineOptions,
    private readonly deps: SessionDeps,
    journal: StateJournal<SessionState>,
  ) {
    this.paths = sessionPaths(initial.id);
    this.parts = sessionParts(initial, this.paths, options, deps, journal, () => this.budgetUsed);
    this.onDidChange = this.parts.cell.onDidChange;
  }

  /** Starts a new, empty session. */
  static create(options: EngineOptions, deps: SessionDeps, id = newSessionId(deps.clock.now())): ContextSession {
    return new ContextSession(emptyState(id, deps.clock.now()), options, deps, newSessionJournal(id, deps));
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
      newSessionJournal(id, deps),
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
    await catchUpOpened(loaded, session.parts);
    return session;
  }

  get id(): string {
    return this.parts.cell.state.id;
  }

  get title(): string {
    return this.parts.cell.state.title;
  }

  /** The live messages of the active context (the context message with the ledger and checkpoints goes before them). */
  get messages(): readonly Message[] {
    return this.parts.cell.state.active;
  }

  get offloads(): readonly OffloadRecord[] {
    return this.parts.cell.state.offloads;
  }

  get ledger(): Ledger {
    return this.parts.cell.state.ledger;
  }

  get checkpoints(): readonly Checkpoint[] {
    return this.parts.cell.state.checkpoints;
  }

  /** The background checkpoint preparation's state: idle, preparing, ready, applying, failed or cancelled. */
  get backgroundCheckpointState(): string {
    return this.parts.tier3.backgroundCheckpointState;
  }

  /** The persisted state as it stands. */
  get state(): SessionState {
    return this.parts.cell.state;
  }

  get warnings(): readonly SessionWarning[] {
    return this.parts.cell.warnings;
  }

  /** True when every message that entered the session is in the archive. */
  get archiveComplete(): boolean {
    return this.parts.archive.complete;
  }

  archiveLocation(): string {
    return this.parts.archive.locate();
  }

  /** Every archived message, the parent session's first when this one was started fresh from it. */
  async readArchive(): Promise<Message[]> {
    const archived = await this.parts.archive.read();
    return [...(await archived.read(0, archived.count))];
  }

  /** Resolves when background checkpoint work has settled (replays wait, so their results repeat). */
  whenPreparationSettled(): Promise<void> {
    return this.parts.tier3.settled();
  }

  /**
   * Adds messages: archives them first, then offloads large tool results (tier 1, on arrival); what
   * tier 1 did joins the session log. A call to one of the checkpoint tools asks for a checkpoint,
   * resolved on the next request.
   */
  async add(messages: readonly Message[]): Promise<CompressionEvent[]> {
    const events = await this.parts.intake.add(messages);
    await appendSessionLog(this.deps.store, this.paths, events, this.deps.logger);
    // Saved at once (a journal line), so a crash never leaves the state a round behind the archive.
    await this.parts.cell.save();
    return events;
  }

  /** Asks for a checkpoint at the next call of this tool (design §3.4); resolved on the next request. */
  requestCheckpoint(toolName: string): void {
    this.parts.cell.update({ pendingCheckpointTool: toolName });
  }

  /** Prepares the next request (see `requestPreparation.ts` for the steps, in order). */
  async prepare(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    return this.finish(await this.parts.preparation.beforeRequest(budget, turn), budget);
  }

  /**
   * Records a request as it is sent to the model (the prepared messages and whatever the turn added after them) and
   * returns what it reused of the one before: what a provider's prompt cache reads (see `sentRequests.ts`).
   */
  recordSent(messages: readonly Message[]): Promise<RequestReuse> {
    return this.parts.sent.record(messages);
  }

  /** Measures the context as it stands, changing nothing (e.g. after the model's answer joined it). */
  async measure(budget: number): Promise<PreparedContext> {
    this.budgetUsed = budget;
    const view = await this.parts.renderer.render(this.parts.cell.state, budget);
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
    return this.finish(await this.parts.preparation.compressNow(budget, turn), budget);
  }

  /** Summarizes every message into a checkpoint, the step before starting a fresh session from it. */
  async checkpointEverything(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    return this.finish(await this.parts.preparation.checkpointEverything(budget, turn), budget);
  }

  /** Adds an active goal (`/goal`). Goals are never summarized. */
  addGoal(text: string): Promise<void> {
    return this.parts.ledger.addGoal(text);
  }

  /** Marks a goal completed, by id or by its text. */
  completeGoal(idOrText: string): Promise<boolean> {
    return this.parts.ledger.completeGoal(idOrText);
  }

  /** Adds a locked decision (`/decide`). Locked decisions are never summarized. */
  addDecision(text: string): Promise<void> {
    return this.parts.ledger.addDecision(text);
  }

  /** Keeps these workspace instructions in the ledger, in place of the ones it held; true when they changed. */
  setInstructions(entries: readonly InstructionEntry[]): Promise<boolean> {
    return this.parts.ledger.setInstructions(entries);
  }

  /** Takes a named snapshot of exactly what the model sees. */
  createSnapshot(name?: string): Promise<SnapshotSummary | undefined> {
    return this.parts.snapshotCommands.take(name);
  }

  /** Snapshots of this session, newest first. */
  listSnapshots(): Promise<SnapshotSummary[]> {
    return this.parts.snapshotCommands.list();
  }

  /** Restores a snapshot by id or name; undefined when there is none. The current state is snapshotted first. */
  restoreSnapshot(idOrName: string): Promise<Snapshot | undefined> {
    return this.parts.snapshotCommands.restore(idOrName);
  }

  /** The reliability score (design §9) for the model in use; the context confidence comes from the last drift check and the checkpoints' recall checks. */
  reliability(model: string | undefined): Reliability {
    return sessionReliability(this.parts.cell.state, model);
  }

  /**
   * Deletes an offloaded file at the user's request. The context keeps its preview and the archive
   * keeps the full result, so nothing of the conversation is lost.
   */
  deleteOffloaded(file: string): Promise<void> {
    return this.parts.editor.deleteOffloaded(file);
  }

  /**
   * Everything the dashboard shows of this session (see `engine/dashboard/`): the composition of the
   * budget, the items largest first, the timeline, the checkpoints and what an undo would take back.
   */
  dashboard(request: DashboardRequest): Promise<DashboardModel> {
    return this.parts.dashboard.model(request);
  }

  /** The full text of an item of the context (see `engine/dashboard/itemIds.ts`); undefined when it is no longer there. */
  itemText(id: string): Promise<{ readonly title: string; readonly text: string } | undefined> {
    return this.parts.dashboard.itemText(id);
  }

  /** Pins a message or a tool result: the ledger keeps it verbatim through every compression. */
  pin(id: string): Promise<EditOutcome> {
    return this.parts.editor.pin(id);
  }

  /** Unpins an item (by its id, or its pinned entry's id). */
  unpin(id: string): Promise<EditOutcome> {
    return this.parts.editor.unpin(id);
  }

  /** Drops an item from the context; the archive keeps it, and a tool call and its result go together. */
  drop(id: string): Promise<EditOutcome> {
    return this.parts.editor.drop(id);
  }

  /** Offloads a tool result to a file now, leaving a preview and the path (tier 1's mechanism). */
  offloadNow(id: string): Promise<EditOutcome> {
    return this.parts.editor.offloadNow(id);
  }

  /**
   * Undoes the last compression: the snapshot taken before it is restored, with the messages that
   * arrived since and the ledger as it is now. A snapshot of the current state is taken first, and
   * the undone checkpoint is kept among the retired ones, where it can be searched.
   */
  undoLastCompression(): Promise<EditOutcome> {
    return this.parts.editor.undoLastCompression();
  }

  /**
   * Previews "Compress context": the same steps run on a scratch copy of the state, with no side
   * effect, and what they would do is returned. Apply it with `applyCompressionPreview`.
   */
  previewCompression(budget: number, turn: TurnOptions = {}): Promise<CompressionPreview> {
    this.budgetUsed = budget;
    return this.parts.previews.preview(budget, turn);
  }

  /** Applies a previewed compression exactly as shown, if the context is still what the preview started from. */
  applyCompressionPreview(id: string): Promise<AppliedPreview> {
    return this.parts.previews.apply(id);
  }

  /** Forgets a previewed compression without applying it. */
  discardCompressionPreview(): void {
    this.parts.previews.discard();
  }

  /** Writes the state if it changed. A failure is reported, not thrown: the conversation goes on in memory. */
  save(): Promise<void> {
    return this.parts.cell.save();
  }

  dispose(): void {
    this.parts.tier3.dispose();
    this.parts.cell.dispose();
  }

  private async finish(preparation: Preparation, budget: number): Promise<PreparedContext> {
    const prepared = this.prepared(preparation, budget);
    await this.parts.history.recordRequest(prepared);
    return prepared;
  }

  private prepared(p: Pick<Preparation, 'view' | 'before' | 'events' | 'critical'>, budget: number): PreparedContext {
    return preparedContext(p, budget, this.options.thresholds, this.parts.cell.state.checkpoints.length);
  }
}
