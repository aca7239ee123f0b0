/**
 * A managed conversation: the archive (everything), the active context (what the model sees) and
 * the tiers that keep the active context inside the budget. Every message is archived before any
 * tier changes the active context.
 */
import { Archive } from './archive';
import { usageOf } from './budget';
import type { Checkpoint } from './checkpoints/checkpoint';
import type { CompressionEvent } from './compressionEvent';
import { CompressionCoordinator, type CriticalOffer, type RequestView, type TurnOptions } from './coordinator';
import { Emitter } from './events';
import { withInstructions } from './ledger/instructions';
import { addDecision, addGoal, completeGoal, updateLedger, withOffloaded } from './ledger/ledgerUpdate';
import type { InstructionEntry, Ledger } from './ledger/ledgerTypes';
import type { Level } from './levels';
import { optionsForBudget, type EngineOptions } from './options';
import type { Clock, Logger, Store, WorkspaceFiles } from './ports';
import { reliabilityFor, type Reliability } from './reliability';
import { RequestRenderer } from './requestView';
import { newSessionId, sessionPaths, type SessionPaths } from './sessionPaths';
import { emptyState, parseSessionState, type SessionState } from './sessionState';
import type { Snapshot, SnapshotSummary } from './snapshots/snapshot';
import { offloadDecision, offloadResult, type OffloadRecord } from './tiers/offload';
import { truncatePersistedInputs } from './tiers/truncateInputs';
import { applyWatermark, findCheckpointCall, indexOfCall } from './tiers/watermark';
import type { TokenCounter } from './tokens/counter';
import { messageText, type Block, type Message, type ToolCallBlock, type ToolResultBlock } from './types';

export interface SessionDeps {
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly files: WorkspaceFiles;
  readonly logger: Logger;
  readonly clock: Clock;
}

/** Results longer than this are sized by estimate: counting 50 MB exactly would stall the turn. */
export const HUGE_RESULT_CHARS = 2_000_000;
/** Characters per token of the estimate used for huge results. */
const ESTIMATE_CHARS_PER_TOKEN = 4;

/** What the model is sent, and how full the window is. */
export interface PreparedContext {
  readonly messages: readonly Message[];
  readonly tokens: number;
  readonly budget: number;
  readonly usage: number;
  readonly level: Level;
  /** True while the tokenizer is not built and the figures are estimates. */
  readonly estimated: boolean;
  /** What the tiers did during this call. */
  readonly events: readonly CompressionEvent[];
  /** Tokens of ctx's context message (ledger, checkpoints), included in `tokens`. */
  readonly contextTokens: number;
  readonly checkpoints: number;
  /** Set when the context went CRITICAL: the user should be offered a fresh session. */
  readonly critical?: CriticalOffer;
}

/** Something the user should be told in plain words (archive unwritable, state rebuilt…). */
export interface SessionWarning {
  readonly at: number;
  readonly message: string;
}

export type SessionChange = { readonly kind: 'messages' | 'compressed' | 'warning' | 'cleared' | 'ledger' };

export type { TurnOptions } from './coordinator';

export class ContextSession {
  private readonly changeEmitter = new Emitter<SessionChange>();
  /** Fires whenever the active context, the offloads or the warnings change. */
  readonly onDidChange = this.changeEmitter.event;
  private readonly archive: Archive;
  readonly paths: SessionPaths;
  /** Messages the archive could not take yet; retried before anything else is written. */
  private unarchived: Message[] = [];
  private readonly warningList: SessionWarning[] = [];
  private readonly coordinator: CompressionCoordinator;
  private budgetUsed = 0;
  private readonly renderer: RequestRenderer;
  /** True when the state changed since it was last written. */
  private dirty = true;

  private constructor(
    private data: SessionState,
    private readonly options: EngineOptions,
    private readonly deps: SessionDeps,
  ) {
    this.paths = sessionPaths(data.id);
    this.archive = new Archive(deps.store, this.paths.archive);
    this.renderer = new RequestRenderer(deps.counter, options.ledgerShare);
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const session = this;
    this.coordinator = new CompressionCoordinator({
      get state() {
        return session.data;
      },
      get options() {
        return optionsForBudget(options, session.budgetUsed);
      },
      deps,
      paths: this.paths,
      get archiveComplete() {
        return session.archiveComplete;
      },
      get lastBudget() {
        return session.budgetUsed;
      },
      update: (patch) => this.update(patch),
      warn: (message) => this.warn(message),
      view: (budget) => this.view(budget),
      readArchive: () => this.readArchive(),
    });
  }

  /** Starts a new, empty session. */
  static create(options: EngineOptions, deps: SessionDeps, id = newSessionId(deps.clock.now())): ContextSession {
    return new ContextSession(emptyState(id, deps.clock.now()), options, deps);
  }

  /**
   * Starts a fresh session from another one (seed 000's CRITICAL rollover): it begins with the
   * parent's ledger and checkpoints and no live messages, and its archive reads through to the
   * parent's, so recovery and aging still reach every original.
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
    );
  }

  /**
   * Opens a stored session. A corrupt or unknown state file does not lose the session: the active
   * context is rebuilt from the archive and the user is told. Undefined when nothing is stored.
   */
  static async open(id: string, options: EngineOptions, deps: SessionDeps): Promise<ContextSession | undefined> {
    const paths = sessionPaths(id);
    const text = await deps.store.read(paths.state);
    const parsed = text === undefined ? undefined : parseSessionState(text);
    if (parsed) return new ContextSession(parsed, options, deps);
    const archived = await new Archive(deps.store, paths.archive).read();
    if (text === undefined && archived.messages.length === 0) return undefined;
    const rebuilt: SessionState = {
      ...emptyState(id, deps.clock.now()),
      active: archived.messages,
      archivedCount: archived.messages.length,
      title: titleOf(archived.messages),
    };
    const session = new ContextSession(rebuilt, options, deps);
    session.warn(
      `The state of session ${id} could not be read, so its context was rebuilt from the archive (${archived.messages.length} messages` +
        `${archived.unreadableLines.length > 0 ? `; archive lines ${archived.unreadableLines.join(', ')} were unreadable and skipped` : ''}). Nothing else was lost.`,
    );
    return session;
  }

  get id(): string {
    return this.data.id;
  }

  get title(): string {
    return this.data.title;
  }

  /** The live messages of the active context (the context message with the ledger and checkpoints goes before them). */
  get messages(): readonly Message[] {
    return this.data.active;
  }

  get offloads(): readonly OffloadRecord[] {
    return this.data.offloads;
  }

  get ledger(): Ledger {
    return this.data.ledger;
  }

  get checkpoints(): readonly Checkpoint[] {
    return this.data.checkpoints;
  }

  /** The background compaction's state: idle, preparing, ready, applying, failed or cancelled. */
  get compactionState(): string {
    return this.coordinator.compactionState;
  }

  /** The persisted state as it stands. */
  get state(): SessionState {
    return this.data;
  }

  get warnings(): readonly SessionWarning[] {
    return this.warningList;
  }

  /** True when every message that entered the session is in the archive. */
  get archiveComplete(): boolean {
    return this.unarchived.length === 0;
  }

  archiveLocation(): string {
    return this.archive.locate();
  }

  /** Every archived message, the parent session's first when this one was started fresh from it. */
  async readArchive(): Promise<Message[]> {
    const own = (await this.archive.read()).messages;
    const parent = this.data.parentSessionId;
    if (!parent || parent === this.data.id) return own;
    const inherited = await new Archive(this.deps.store, sessionPaths(parent).archive).read();
    return [...inherited.messages, ...own];
  }

  /** Resolves when background compaction work has settled (replays wait, so their results repeat). */
  whenCompactionSettled(): Promise<void> {
    return this.coordinator.settled();
  }

  /**
   * Adds messages: archives them first, then offloads large tool results (tier 1, on arrival). A
   * call to one of the checkpoint tools asks for a checkpoint, resolved on the next request.
   * When the archive cannot be written, the messages still join the context unchanged: nothing is
   * removed from the context until the archive holds it.
   */
  async add(messages: readonly Message[]): Promise<CompressionEvent[]> {
    const archived = await this.archiveMessages(messages);
    const events: CompressionEvent[] = [];
    const offloads: OffloadRecord[] = [];
    const arrived: Message[] = [];
    const calls = toolCallsById([...this.data.active, ...messages]);
    for (const msg of messages) {
      arrived.push(archived ? await this.offloadLargeResults(msg, calls, events, offloads) : msg);
    }
    const checkpointCall = messages
      .flatMap((m) => m.blocks)
      .find((b) => b.type === 'toolCall' && this.options.checkpointTools.includes(b.name));
    const ledger = await updateLedger(this.data.ledger, messages, {
      findCall: (id) => calls.get(id),
      countText: (t) => this.deps.counter.countText(t),
      now: this.deps.clock.now(),
      newId: (prefix) => `${prefix}-${this.deps.clock.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
    });
    this.update({
      ...(checkpointCall?.type === 'toolCall' ? { pendingCheckpointTool: checkpointCall.name } : {}),
      active: [...this.data.active, ...arrived],
      title: this.data.title || titleOf(messages),
      offloads: [...this.data.offloads, ...offloads],
      history: [...this.data.history, ...events],
      ledger:
        offloads.length > 0
          ? withOffloaded(
              ledger,
              offloads.map((o) => ({ callId: o.callId, toolName: o.toolName, file: o.file, tokens: o.tokens })),
            )
          : ledger,
    });
    this.changeEmitter.fire({ kind: 'messages' });
    return events;
  }

  /** Asks for a checkpoint at the next call of this tool (seed 001's trigger); resolved on the next request. */
  requestCheckpoint(toolName: string): void {
    this.update({ pendingCheckpointTool: toolName });
  }

  /**
   * Prepares the next request: truncates inputs already on disk when usage is above the trigger
   * (tier 2), resolves a pending checkpoint, applies the watermark, then lets the coordinator act:
   * old results compressed at high usage, Tier 3 at the trigger (a checkpoint prepared in the
   * background from ORANGE on is applied at once), snapshots, and the CRITICAL offer.
   */
  async prepare(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    const events: CompressionEvent[] = [];
    const view = await this.view(budget);
    if (this.archiveComplete && usageOf(view.measured.total, budget) >= this.options.truncateInputsAt) {
      await this.truncateInputs(events);
    }
    this.resolvePendingCheckpoint();
    await this.applyWatermark(events);
    const critical = await this.coordinator.afterTiers(budget, turn, events);
    await this.finish(events);
    return this.prepared(await this.view(budget), budget, events, critical);
  }

  /** Measures the context as it stands, changing nothing (e.g. after the model's answer joined it). */
  async measure(budget: number): Promise<PreparedContext> {
    this.budgetUsed = budget;
    return this.prepared(await this.view(budget), budget, []);
  }

  /**
   * "Compress context": truncates every verified input outside the recent messages, moves the
   * watermark to the last tool call before them, and summarizes everything but the latest
   * messages into a checkpoint (Tier 3), with the model when one is given. Cancelling leaves the
   * context as it was.
   */
  async compress(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    const events: CompressionEvent[] = [];
    if (this.archiveComplete) {
      await this.truncateInputs(events);
      const lastOldCall = this.lastCallBeforeRecent();
      if (lastOldCall && lastOldCall !== this.data.watermark && this.isAfterWatermark(lastOldCall)) {
        this.update({ watermark: lastOldCall });
        this.deps.logger.info(`Watermark moved to ${lastOldCall} by an explicit compression.`);
      }
      await this.applyWatermark(events);
      await this.coordinator.compressNow(budget, turn, events);
    } else {
      this.warn('Compression was skipped: the archive could not be written, and nothing is removed from the context until it is.');
    }
    await this.finish(events);
    return this.prepared(await this.view(budget), budget, events);
  }

  /** Summarizes every message into a checkpoint, the step before starting a fresh session from it. */
  async checkpointEverything(budget: number, turn: TurnOptions = {}): Promise<PreparedContext> {
    this.budgetUsed = budget;
    const events: CompressionEvent[] = [];
    if (this.data.active.length > 0) await this.coordinator.checkpointEverything(budget, turn, events);
    await this.finish(events);
    return this.prepared(await this.view(budget), budget, events);
  }

  /** Adds an active goal (`/goal`). Goals are never summarized. */
  async addGoal(text: string): Promise<void> {
    await this.changeLedger(addGoal(this.data.ledger, text, 'command', this.deps.clock.now(), this.newLedgerId('g')));
  }

  /** Marks a goal completed, by id or by its text. */
  async completeGoal(idOrText: string): Promise<boolean> {
    const next = completeGoal(this.data.ledger, idOrText, this.deps.clock.now());
    if (next === this.data.ledger) return false;
    await this.changeLedger(next);
    return true;
  }

  /** Adds a locked decision (`/decide`). Locked decisions are never summarized. */
  async addDecision(text: string): Promise<void> {
    await this.changeLedger(addDecision(this.data.ledger, text, 'command', this.deps.clock.now(), this.newLedgerId('d')));
  }

  /** Keeps these workspace instructions in the ledger, in place of the ones it held; true when they changed. */
  async setInstructions(entries: readonly InstructionEntry[]): Promise<boolean> {
    const next = withInstructions(this.data.ledger, entries);
    if (next === this.data.ledger) return false;
    await this.changeLedger(next);
    return true;
  }

  /** Takes a named snapshot of exactly what the model sees. */
  async createSnapshot(name?: string): Promise<SnapshotSummary | undefined> {
    const events: CompressionEvent[] = [];
    const summary = await this.coordinator.snapshot('manual', name, events);
    await this.finish(events);
    return summary;
  }

  /** Snapshots of this session, newest first. */
  listSnapshots(): Promise<SnapshotSummary[]> {
    return this.coordinator.snapshots.list();
  }

  /** Restores a snapshot by id or name; undefined when there is none. The current state is snapshotted first. */
  async restoreSnapshot(idOrName: string): Promise<Snapshot | undefined> {
    const events: CompressionEvent[] = [];
    const restored = await this.coordinator.restore(idOrName, events);
    await this.finish(events);
    return restored;
  }

  /** Seed 003's reliability score for the model in use; the context confidence comes from the last drift check. */
  reliability(model: string | undefined): Reliability {
    return reliabilityFor({ model, compressions: this.data.compressions, contextConfidence: this.data.contextConfidence });
  }

  /**
   * Deletes an offloaded file at the user's request. The context keeps its preview and the archive
   * keeps the full result, so nothing of the conversation is lost.
   */
  async deleteOffloaded(file: string): Promise<void> {
    if (!this.data.offloads.some((o) => o.file === file)) return;
    await this.deps.store.remove(file);
    this.update({ offloads: this.data.offloads.filter((o) => o.file !== file) });
    await this.save();
    this.changeEmitter.fire({ kind: 'compressed' });
  }

  /** Writes the state file. A failure is reported, not thrown: the conversation goes on in memory. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    try {
      this.dirty = false;
      await this.deps.store.write(this.paths.state, JSON.stringify(this.data));
    } catch (e) {
      this.dirty = true;
      this.warn(`The session state could not be saved (${errorText(e)}). The conversation goes on; the archive still has every message.`);
    }
  }

  dispose(): void {
    this.coordinator.dispose();
    this.changeEmitter.dispose();
  }

  private view(budget: number): Promise<RequestView> {
    return this.renderer.render(this.data, budget);
  }

  private prepared(view: RequestView, budget: number, events: readonly CompressionEvent[], critical?: CriticalOffer): PreparedContext {
    const level: Level = this.coordinator.levelOf(view, budget);
    return {
      messages: view.messages,
      tokens: view.measured.total,
      budget,
      usage: usageOf(view.measured.total, budget),
      level,
      estimated: view.measured.estimated,
      events,
      contextTokens: view.contextTokens,
      checkpoints: this.data.checkpoints.length,
      ...(critical ? { critical } : {}),
    };
  }

  private async changeLedger(ledger: Ledger): Promise<void> {
    if (ledger === this.data.ledger) return;
    this.update({ ledger });
    await this.save();
    this.changeEmitter.fire({ kind: 'ledger' });
  }

  private newLedgerId(prefix: string): string {
    return `${prefix}-${this.deps.clock.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  }

  private async finish(events: readonly CompressionEvent[]): Promise<void> {
    if (events.length > 0) {
      this.update({ history: [...this.data.history, ...events] });
      this.changeEmitter.fire({ kind: 'compressed' });
      await this.log(events);
    }
    await this.save();
  }

  /** Appends events to the session log (seed 004's SESSION_LOG), one line each. */
  private async log(events: readonly CompressionEvent[]): Promise<void> {
    try {
      await this.deps.store.append(
        `${this.paths.folder}/${SESSION_LOG_FILE}`,
        events.map((e) => `- ${new Date(e.at).toISOString()} · ${e.name ?? e.tier} · ${e.detail}`),
      );
    } catch (e) {
      this.deps.logger.warn(`The session log could not be written: ${errorText(e)}`);
    }
  }

  private async archiveMessages(messages: readonly Message[]): Promise<boolean> {
    const pending = [...this.unarchived, ...messages];
    try {
      await this.archive.append(pending);
      this.unarchived = [];
      this.update({ archivedCount: this.data.archivedCount + pending.length });
      return true;
    } catch (e) {
      this.unarchived = pending;
      this.warn(
        `The archive could not be written (${errorText(e)}). The conversation goes on with its full context; ` +
          `compression waits until the archive can be written, so nothing is lost.`,
      );
      return false;
    }
  }

  private async offloadLargeResults(
    msg: Message,
    calls: ReadonlyMap<string, ToolCallBlock>,
    events: CompressionEvent[],
    records: OffloadRecord[],
  ): Promise<Message> {
    if (!msg.blocks.some((b) => b.type === 'toolResult')) return msg;
    const blocks: Block[] = [];
    for (const block of msg.blocks) {
      blocks.push(
        block.type === 'toolResult'
          ? await this.offloadIfLarge(block, block.toolName ?? calls.get(block.callId)?.name ?? 'tool', msg, events, records)
          : block,
      );
    }
    return blocks.every((b, i) => b === msg.blocks[i]) ? msg : { ...msg, blocks };
  }

  private async offloadIfLarge(
    block: ToolResultBlock,
    toolName: string,
    msg: Message,
    events: CompressionEvent[],
    records: OffloadRecord[],
  ): Promise<ToolResultBlock> {
    const huge = block.content.length > HUGE_RESULT_CHARS;
    const tokens = huge ? Math.ceil(block.content.length / ESTIMATE_CHARS_PER_TOKEN) : await this.deps.counter.countText(block.content);
    const thresholdTokens = optionsForBudget(this.options, this.budgetUsed).offloadThresholdTokens;
    if (offloadDecision(block.content, tokens, { thresholdTokens }) === 'keep') return block;
    const at = msg.at ?? this.deps.clock.now();
    try {
      const offloaded = await offloadResult(block, toolName, tokens, at, { store: this.deps.store, folder: this.paths.offloaded });
      const savedTokens = Math.max(0, tokens - (await this.deps.counter.countText(offloaded.block.content)));
      const estimated = huge || this.deps.counter.estimated;
      records.push({
        callId: block.callId,
        toolName,
        file: offloaded.file,
        tokens,
        savedTokens,
        kind: offloaded.kind,
        isError: block.isError,
        at,
        estimated,
      });
      const what = block.isError ? 'error' : 'result';
      events.push({
        at,
        tier: 'offload',
        savedTokens,
        detail: `Offloaded ${toolName} ${what} (${tokens.toLocaleString('en-US')} tokens) to ${offloaded.file.split('/').pop()}`,
        file: offloaded.file,
      });
      if (offloaded.replacedCharacters > 0) {
        this.deps.logger.warn(
          `${offloaded.replacedCharacters} invalid UTF-16 characters were replaced in the offloaded copy of ${block.callId}; the archive keeps the original.`,
        );
      }
      return offloaded.block;
    } catch (e) {
      this.warn(`A large ${toolName} result could not be written to a file (${errorText(e)}); it stays in the context in full.`);
      return block;
    }
  }

  private async truncateInputs(events: CompressionEvent[]): Promise<void> {
    const result = await truncatePersistedInputs(this.data.active, this.options.recentMessagesKept, {
      files: this.deps.files,
      countText: (t) => this.deps.counter.countText(t),
      now: this.deps.clock.now(),
    });
    if (result.records.length === 0) return;
    this.update({ active: result.messages, truncations: [...this.data.truncations, ...result.records] });
    for (const r of result.records) {
      events.push({
        at: r.at,
        tier: 'truncate',
        savedTokens: r.savedTokens,
        detail: `Truncated ${r.toolName} input for ${r.path} (content on disk)`,
      });
    }
  }

  private resolvePendingCheckpoint(): void {
    const tool = this.data.pendingCheckpointTool;
    if (!tool) return;
    const found = findCheckpointCall(this.data.active, tool, this.data.watermark);
    if (found) {
      this.deps.logger.info(`Watermark updated to ${found} (checkpoint by ${tool}).`);
      this.update({ watermark: found, pendingCheckpointTool: undefined });
    } else {
      this.deps.logger.warn(`Checkpoint tool ${tool} not found after the watermark; the watermark is unchanged.`);
      this.update({ pendingCheckpointTool: undefined });
    }
  }

  private async applyWatermark(events: CompressionEvent[]): Promise<void> {
    const watermark = this.data.watermark;
    if (!watermark) return;
    const result = applyWatermark(this.data.active, watermark);
    if (!result.found) {
      this.deps.logger.warn(`Watermark ${watermark} not found in the context; no tool blocks were dropped.`);
      return;
    }
    if (result.removedBlocks === 0) return;
    const before = await this.deps.counter.measure(this.data.active);
    const after = await this.deps.counter.measure(result.messages);
    this.update({ active: result.messages });
    events.push({
      at: this.deps.clock.now(),
      tier: 'watermark',
      savedTokens: Math.max(0, before.total - after.total),
      detail: `Dropped ${result.removedBlocks} tool blocks before the watermark (${result.removedMessages} empty messages removed); all text kept`,
    });
  }

  private lastCallBeforeRecent(): string | undefined {
    const end = this.data.active.length - this.options.recentMessagesKept;
    for (let i = end - 1; i >= 0; i--) {
      const calls = this.data.active[i].blocks.filter((b) => b.type === 'toolCall');
      const last = calls[calls.length - 1];
      if (last?.type === 'toolCall') return last.id;
    }
    return undefined;
  }

  private isAfterWatermark(callId: string): boolean {
    if (!this.data.watermark) return true;
    const current = indexOfCall(this.data.active, this.data.watermark);
    return current === -1 || indexOfCall(this.data.active, callId) > current;
  }

  private update(patch: Partial<SessionState>): void {
    this.dirty = true;
    this.data = { ...this.data, ...patch, updatedAt: this.deps.clock.now() };
  }

  private warn(message: string): void {
    this.deps.logger.warn(message);
    this.warningList.push({ at: this.deps.clock.now(), message });
    this.changeEmitter.fire({ kind: 'warning' });
  }
}

function toolCallsById(messages: readonly Message[]): Map<string, ToolCallBlock> {
  const calls = new Map<string, ToolCallBlock>();
  for (const m of messages) for (const b of m.blocks) if (b.type === 'toolCall') calls.set(b.id, b);
  return calls;
}

/** The session log's file name, in the session's folder. */
export const SESSION_LOG_FILE = 'session-log.md';

/** The session's title: its first user request, on one line. */
function titleOf(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === 'user');
  const text = first ? messageText(first).replace(/\s+/g, ' ').trim() : '';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
