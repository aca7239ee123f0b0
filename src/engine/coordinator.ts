/**
 * The compression coordinator (seed 003): decides when Tier 3 runs, prepares checkpoints in the
 * background from ORANGE on, applies them at the trigger, ages the older ones, checks for drift
 * afterwards, compresses old tool results at high usage (seed 002) and takes the snapshots.
 * The session owns the state; the coordinator changes it only through its host.
 */
import { NEVER_CANCELLED, type Cancellation } from './cancellation';
import type { Checkpoint } from './checkpoints/checkpoint';
import { planCheckpoint, type CheckpointPlan } from './checkpoints/checkpointPlan';
import { basisOf, prepareCheckpoint, type CheckpointWork, type SummarizeFn, type WrittenSummary } from './checkpoints/checkpointing';
import { AGE_LABELS, targetTokensFor } from './checkpoints/aging';
import { Compaction } from './compaction/compaction';
import type { CompressionEvent, EngineEventName, Tier } from './compressionEvent';
import { checkDrift, renderReinsertion } from './drift/driftCheck';
import { offloadHugeUserMessages } from './ledger/userMessageOffload';
import { recordToolActivity } from './ledger/toolRecord';
import type { Ledger } from './ledger/ledgerTypes';
import { levelFor, type Level } from './levels';
import type { EngineOptions } from './options';
import type { SessionDeps } from './session';
import type { SessionPaths } from './sessionPaths';
import type { SessionState } from './sessionState';
import { SnapshotStore } from './snapshots/snapshotStore';
import type { Snapshot, SnapshotReason, SnapshotSummary } from './snapshots/snapshot';
import { CircuitBreaker } from './summary/circuitBreaker';
import { DeterministicSummarizer } from './summary/deterministicSummarizer';
import { summarizeInChunks } from './summary/chunkedSummary';
import { summarizeResiliently } from './summary/resilientSummary';
import type { Summarizer, SummaryGuide } from './summary/summarizer';
import type { Measurement } from './tokens/counter';
import { compressOldResults } from './tiers/compressResults';
import { messageText, type Message } from './types';

/** What the host of a turn can give the engine for Tier 3. */
export interface TurnOptions {
  /** The language model summarizer; the deterministic one is used without it or when it fails. */
  readonly summarizer?: Summarizer;
  /** Cancels an explicit compression. */
  readonly cancellation?: Cancellation;
  /** What an explicit compression should focus on (`/compress <focus>`). */
  readonly focus?: string;
  /** Reports progress of long work in plain words. */
  readonly progress?: (message: string) => void;
}

/** What is sent to the model for the next request, measured. */
export interface RequestView {
  readonly messages: readonly Message[];
  readonly measured: Measurement;
  /** Tokens of the context message (ledger, checkpoints, restored items). */
  readonly contextTokens: number;
  /** True when what must never be summarized does not fit its budget. */
  readonly ledgerOverflow: boolean;
}

/** What the coordinator needs from the session it serves. */
export interface CoordinatorHost {
  readonly state: SessionState;
  readonly options: EngineOptions;
  readonly deps: SessionDeps;
  readonly paths: SessionPaths;
  readonly archiveComplete: boolean;
  /** The budget of the latest request; work outside a request measures against it. */
  readonly lastBudget: number;
  update(patch: Partial<SessionState>): void;
  warn(message: string): void;
  view(budget: number): Promise<RequestView>;
  readArchive(): Promise<Message[]>;
}

/** Why the user is offered a fresh session. */
export interface CriticalOffer {
  readonly reason: string;
  readonly snapshot?: string;
}

type Work =
  | { readonly kind: 'checkpoint'; readonly work: CheckpointWork }
  | { readonly kind: 'upgrade'; readonly checkpointId: string; readonly summary: WrittenSummary; readonly tokens: number };

/** How Tier 3 chooses its range: reach the target usage, or take everything but the kept messages. */
type PlanMode = 'target' | 'all-but-recent' | 'everything';

const n = (x: number) => Math.round(x).toLocaleString('en-US');

export class CompressionCoordinator {
  private readonly compaction = new Compaction<Work>();
  private readonly breaker: CircuitBreaker;
  private readonly floorSummarizer: DeterministicSummarizer;
  readonly snapshots: SnapshotStore;

  constructor(private readonly host: CoordinatorHost) {
    this.breaker = new CircuitBreaker(host.deps.clock);
    this.floorSummarizer = new DeterministicSummarizer({
      countText: (t) => host.deps.counter.countText(t),
      recordTools: (m) => recordToolActivity(m),
    });
    this.snapshots = new SnapshotStore(host.deps.store, host.state.id, host.deps.clock);
  }

  /** The background compaction's state, for the status report and tests. */
  get compactionState(): Compaction<Work>['state'] {
    return this.compaction.state;
  }

  /** Resolves when background work has settled. */
  settled(): Promise<void> {
    return this.compaction.settled();
  }

  /** The level a view stands at: CRITICAL whenever what must never be summarized does not fit. */
  levelOf(view: RequestView, budget: number): Level {
    return view.ledgerOverflow ? 'CRITICAL' : levelFor(view.measured.total / budget, this.host.options.thresholds);
  }

  /**
   * Everything after tiers 1–2 for one request: a ready model summary replaces its floor, old
   * results are compressed at high usage, the automatic snapshot, Tier 3 at the trigger,
   * background preparation from ORANGE, and the CRITICAL handling.
   */
  async afterTiers(budget: number, turn: TurnOptions, events: CompressionEvent[]): Promise<CriticalOffer | undefined> {
    this.applyUpgrade(events);
    if (!this.host.archiveComplete) return undefined;
    let view = await this.host.view(budget);
    const usage = () => view.measured.total / budget;
    if (usage() >= this.host.options.compressResultsAt && (await this.compressOldResults(events))) view = await this.host.view(budget);
    if (usage() >= this.host.options.autoSnapshotAt && this.host.state.autoSnapshotArmed) {
      this.host.update({ autoSnapshotArmed: false });
      await this.snapshot('auto', undefined, events, view);
    }
    const criticalBefore = this.levelOf(view, budget) === 'CRITICAL';
    if (this.isDue(view, budget)) {
      await this.runTier3(budget, turn, events, criticalBefore ? 'all-but-recent' : 'target', false);
      view = await this.host.view(budget);
    } else if (this.levelOf(view, budget) !== 'GREEN' && usage() >= this.host.options.thresholds.orangeAt) {
      this.prepareInBackground(view, budget, turn);
    }
    if (!criticalBefore && this.levelOf(view, budget) !== 'CRITICAL') return undefined;
    const snapshot = await this.snapshot('critical', undefined, events, view);
    const reason = view.ledgerOverflow
      ? 'What must never be summarized (the intent, goals, decisions and your messages) no longer fits in its share of the context window.'
      : `The context is at ${(usage() * 100).toFixed(0)}% of the budget even after a checkpoint.`;
    events.push(
      this.event(
        'critical',
        0,
        `${reason} A checkpoint and a snapshot were taken; continue in a fresh session from the checkpoint.`,
        'rollover-complete',
      ),
    );
    return { reason, ...(snapshot ? { snapshot: snapshot.name } : {}) };
  }

  /** Tier 3 at the user's request: whatever the level, everything but the latest messages becomes a checkpoint. */
  async compressNow(budget: number, turn: TurnOptions, events: CompressionEvent[]): Promise<Checkpoint | undefined> {
    this.applyUpgrade(events);
    if (!this.host.archiveComplete) return undefined;
    await this.compressOldResults(events);
    return this.runTier3(budget, turn, events, 'all-but-recent', true);
  }

  /** Summarizes every message into a checkpoint, so a fresh session can start from it. */
  async checkpointEverything(budget: number, turn: TurnOptions, events: CompressionEvent[]): Promise<Checkpoint | undefined> {
    if (!this.host.archiveComplete) return undefined;
    return this.runTier3(budget, turn, events, 'everything', true);
  }

  /** Takes a snapshot of exactly what the model sees; a failure is reported, never thrown. */
  async snapshot(
    reason: SnapshotReason,
    name: string | undefined,
    events: CompressionEvent[],
    view?: RequestView,
  ): Promise<SnapshotSummary | undefined> {
    const s = this.host.state;
    try {
      const tokens = (view ?? (await this.host.view(this.host.lastBudget))).measured.total;
      const summary = await this.snapshots.create({
        ...(name ? { name } : {}),
        reason,
        content: {
          ledger: s.ledger,
          checkpoints: s.checkpoints,
          ...(s.watermark ? { watermark: s.watermark } : {}),
          active: s.active,
          offloads: s.offloads,
        },
        tokens,
      });
      const automatic = reason !== 'manual';
      events.push(
        this.event(
          'snapshot',
          0,
          `${automatic ? 'Automatic snapshot' : 'Snapshot'} "${summary.name}" taken (${n(tokens)} tokens, ${s.checkpoints.length} checkpoints)`,
          automatic ? 'auto-snapshot-created' : 'snapshot-created',
        ),
      );
      return summary;
    } catch (e) {
      this.host.warn(
        `A snapshot could not be saved (${e instanceof Error ? e.message : String(e)}). The conversation goes on; nothing was removed.`,
      );
      events.push(this.event('snapshot', 0, 'A snapshot could not be saved', 'snapshot-error'));
      return undefined;
    }
  }

  /** Restores a snapshot by id or name; the current state is snapshotted first so the restore can be undone. */
  async restore(idOrName: string, events: CompressionEvent[]): Promise<Snapshot | undefined> {
    const snapshot = await this.snapshots.read(idOrName);
    if (!snapshot) return undefined;
    this.compaction.reset();
    await this.snapshot('before-restore', undefined, events);
    const c = snapshot.content;
    this.host.update({
      ledger: c.ledger,
      checkpoints: c.checkpoints,
      watermark: c.watermark,
      active: c.active,
      offloads: c.offloads,
      restored: '',
      pendingCheckpointTool: undefined,
    });
    events.push(
      this.event(
        'snapshot',
        0,
        `Restored snapshot "${snapshot.name}" (${c.active.length} messages, ${c.checkpoints.length} checkpoints); the archive still holds everything`,
        'snapshot-restored',
      ),
    );
    return snapshot;
  }

  dispose(): void {
    this.compaction.dispose();
  }

  private isDue(view: RequestView, budget: number): boolean {
    const o = this.host.options;
    if (o.checkpointTrigger === 'available') {
      const available = Math.max(1, budget - view.contextTokens);
      return view.measured.total - view.contextTokens >= available * o.availableTriggerShare;
    }
    const level = this.levelOf(view, budget);
    return level === 'RED' || level === 'CRITICAL';
  }

  /** The tokens at which Tier 3 fires, for planning ahead. */
  private triggerTokens(view: RequestView, budget: number): number {
    const o = this.host.options;
    return o.checkpointTrigger === 'available'
      ? view.contextTokens + (budget - view.contextTokens) * o.availableTriggerShare
      : budget * o.thresholds.redAt;
  }

  private plan(view: RequestView, budget: number, mode: PlanMode, expectedGrowth = 0): CheckpointPlan | undefined {
    const o = this.host.options;
    const active = this.host.state.active;
    const offset = view.messages.length - active.length;
    const everything = mode === 'everything';
    // Aging shrinks the existing checkpoints; plan with what they will take after it.
    const agedCheckpoints = this.host.state.checkpoints.reduce(
      (sum, c) => sum + targetTokensFor(Math.min(3, c.age + 1) as Checkpoint['age'], o.checkpointTokens),
      0,
    );
    const currentCheckpoints = this.host.state.checkpoints.reduce((sum, c) => sum + c.currentTokens, 0);
    return planCheckpoint({
      active,
      messageTokens: active.map((m) => view.measured.perMessage.get(m.id) ?? 0),
      fixedTokens: Math.max(0, view.measured.total - sumOf(view, offset) - currentCheckpoints + agedCheckpoints),
      checkpointTokens: o.checkpointTokens,
      budget,
      targetUsage: mode === 'target' ? o.targetUsageAfterCheckpoint : 0,
      expectedGrowth,
      keepMessages: everything ? 0 : o.recentMessagesKept,
      keepTokens: everything ? 0 : Math.min(o.recentTokensKept, budget * o.targetUsageAfterCheckpoint * 0.5),
    });
  }

  private prepareInBackground(view: RequestView, budget: number, turn: TurnOptions): void {
    if (this.compaction.state !== 'idle' && this.compaction.state !== 'failed' && this.compaction.state !== 'cancelled') return;
    const plan = this.plan(view, budget, 'target', Math.max(0, this.triggerTokens(view, budget) - view.measured.total));
    if (!plan) return;
    const summarize = this.summarizeFn(turn.summarizer);
    const existing = this.host.state.checkpoints;
    const started = this.compaction.start(basisOf(existing, plan), async (cancellation) => ({
      kind: 'checkpoint',
      work: await this.work(plan, existing, summarize, cancellation, undefined),
    }));
    if (started) this.host.deps.logger.info(`Preparing a checkpoint of ${plan.messageIds.length} messages in the background.`);
  }

  /**
   * Runs Tier 3. At the trigger the user is waiting: a ready checkpoint applies, or else the
   * deterministic floor now and the model's summary later. An explicit request waits for the model.
   */
  private async runTier3(
    budget: number,
    turn: TurnOptions,
    events: CompressionEvent[],
    mode: PlanMode,
    explicit: boolean,
  ): Promise<Checkpoint | undefined> {
    const view = await this.host.view(budget);
    const ready = !explicit
      ? this.compaction.take((basis, value) => value.kind === 'checkpoint' && this.stillApplies(basis, value.work.plan))
      : undefined;
    let work = ready?.value.kind === 'checkpoint' ? ready.value.work : undefined;
    if (!work) {
      this.compaction.reset();
      const plan = this.plan(view, budget, mode);
      if (!plan) {
        events.push(
          this.event(
            'checkpoint',
            0,
            'No checkpoint was needed: everything in the context is among the latest messages kept intact',
            'compression-skipped',
          ),
        );
        return undefined;
      }
      turn.progress?.(`Summarizing ${plan.messageIds.length} messages into a checkpoint…`);
      try {
        work = await this.work(
          plan,
          this.host.state.checkpoints,
          explicit ? this.summarizeFn(turn.summarizer) : this.floor,
          turn.cancellation ?? NEVER_CANCELLED,
          turn.focus,
        );
      } catch (e) {
        this.compaction.reset();
        if (turn.cancellation?.isCancellationRequested) {
          events.push(this.event('checkpoint', 0, 'Compression was cancelled; the context is unchanged', 'compression-skipped'));
          return undefined;
        }
        this.host.warn(
          `The checkpoint could not be made (${e instanceof Error ? e.message : String(e)}). The context is unchanged and nothing was lost.`,
        );
        events.push(this.event('checkpoint', 0, 'The checkpoint could not be made', 'compression-error'));
        return undefined;
      }
    }
    await this.snapshot('before-checkpoint', undefined, events, view);
    await this.apply(work, view, budget, events);
    this.compaction.finish();
    if (!explicit && turn.summarizer && work.created.summarizedBy !== turn.summarizer.name) {
      this.startUpgrade(work.created, turn.summarizer);
    }
    await this.checkDrift(budget, events);
    return work.created;
  }

  private async work(
    plan: CheckpointPlan,
    existing: readonly Checkpoint[],
    summarize: SummarizeFn,
    cancellation: Cancellation,
    focus: string | undefined,
  ): Promise<CheckpointWork> {
    const s = this.host.state;
    return prepareCheckpoint(
      {
        plan,
        existing,
        guide: guideFrom(s.ledger),
        ...(focus ? { focus } : {}),
        checkpointTokens: this.host.options.checkpointTokens,
        compressionNumber: s.compressions + 1,
        archivePath: this.host.paths.archive,
        offloadedFolder: this.host.paths.offloaded,
      },
      {
        ...(await this.archiveAccess()),
        summarize,
        floor: this.floor,
        countText: (t) => this.host.deps.counter.countText(t),
        now: () => this.host.deps.clock.now(),
        newId: () => `cp-${this.host.deps.clock.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      },
      cancellation,
    );
  }

  /** The archived originals by id, offloaded results replaced by their reference, and archive positions. */
  private async archiveAccess(): Promise<{ originals(ids: readonly string[]): Promise<Message[]>; position(id: string): number }> {
    const archived = await this.host.readArchive();
    const positions = new Map(archived.map((m, i) => [m.id, i + 1]));
    const offloaded = new Map(this.host.state.offloads.map((o) => [o.callId, o]));
    const referenced = (m: Message): Message => {
      if (!m.blocks.some((b) => b.type === 'toolResult' && offloaded.has(b.callId))) return m;
      return {
        ...m,
        blocks: m.blocks.map((b) => {
          const o = b.type === 'toolResult' ? offloaded.get(b.callId) : undefined;
          return o && b.type === 'toolResult'
            ? { ...b, content: `[${o.toolName} result of ${n(o.tokens)} tokens, offloaded to ${o.file}]\n${b.content.slice(0, 1500)}` }
            : b;
        }),
      };
    };
    const byId = new Map(archived.map((m) => [m.id, m]));
    return {
      originals: async (ids) => ids.flatMap((id) => (byId.has(id) ? [referenced(byId.get(id) as Message)] : [])),
      position: (id) => positions.get(id) ?? 0,
    };
  }

  private get floor(): SummarizeFn {
    return async (request, cancellation) => ({
      text: await summarizeInChunks(this.floorSummarizer, request, { countText: (t) => this.host.deps.counter.countText(t), cancellation }),
      summarizedBy: this.floorSummarizer.name,
    });
  }

  private summarizeFn(model: Summarizer | undefined): SummarizeFn {
    if (!model) return this.floor;
    return (request, cancellation) =>
      summarizeResiliently(request, {
        primary: model,
        floor: this.floorSummarizer,
        breaker: this.breaker,
        countText: (t) => this.host.deps.counter.countText(t),
        cancellation,
        timeoutMs: this.host.options.summaryTimeoutMs,
      });
  }

  /** A prepared plan applies while the checkpoints are unchanged and its messages still open the context. */
  private stillApplies(basis: string, plan: CheckpointPlan): boolean {
    const active = this.host.state.active;
    return basis === basisOf(this.host.state.checkpoints, plan) && plan.messageIds.every((id, i) => active[i]?.id === id);
  }

  private async apply(work: CheckpointWork, before: RequestView, budget: number, events: CompressionEvent[]): Promise<void> {
    const s = this.host.state;
    const taken = new Set(work.plan.messageIds);
    const active = s.active.filter((m) => !taken.has(m.id));
    const live = new Set(active.map((m) => m.id));
    const offloadedUsers = await offloadHugeUserMessages(s.ledger, {
      liveMessageIds: live,
      store: this.host.deps.store,
      folder: this.host.paths.offloaded,
      now: this.host.deps.clock.now(),
    });
    this.host.update({
      active,
      checkpoints: work.checkpoints,
      compressions: s.compressions + 1,
      restored: '',
      autoSnapshotArmed: true,
      ledger: offloadedUsers.ledger,
    });
    const after = await this.host.view(budget);
    const saved = Math.max(0, before.measured.total - after.measured.total);
    const by =
      work.created.summarizedBy === this.floorSummarizer.name ? 'deterministic summary' : `summary by ${work.created.summarizedBy}`;
    events.push(
      this.event(
        'checkpoint',
        saved,
        `Summarized ${work.plan.messageIds.length} messages → 1 summary (saved ~${n(saved)} tokens; ${work.created.range}, ${n(work.created.currentTokens)} tokens, ${by})`,
        'checkpoint-created',
      ),
    );
    for (const { from, to } of work.aged) {
      const wasTokens = from.reduce((sum, c) => sum + c.currentTokens, 0);
      const what = from.length > 1 ? `Merged ${from.length} checkpoints into one` : `Checkpoint ${to.range} aged to ${AGE_LABELS[to.age]}`;
      events.push(
        this.event(
          'age',
          Math.max(0, wasTokens - to.currentTokens),
          `${what}: ${n(wasTokens)} → ${n(to.currentTokens)} tokens, re-summarized from the archived originals`,
          'checkpoint-aged',
        ),
      );
    }
    for (const reason of new Set(work.fallbackReasons)) {
      this.host.warn(`The model's summary was not used (${reason}); ctx's deterministic summary stands in, and nothing was lost.`);
    }
    for (const failure of offloadedUsers.failures ?? []) this.host.warn(failure);
    events.push(
      this.event('checkpoint', 0, `Context compressed: ${n(before.measured.total)} → ${n(after.measured.total)} tokens`, 'compressed'),
    );
  }

  /** Seed 000's post-compression verification: what must survive is in the context, or is put back. */
  private async checkDrift(budget: number, events: CompressionEvent[]): Promise<void> {
    const view = await this.host.view(budget);
    const contextText = view.messages.map(messageText).join('\n');
    const ledger = this.host.state.ledger;
    let report = checkDrift({ contextText, ledger, isFindable: () => false });
    if (report.missing.some((m) => m.kind === 'artifact')) {
      // An artifact out of the context is still findable when the recovery search can reach it in the archive.
      const archiveText = (await this.host.readArchive()).map(searchableText).join('\n');
      report = checkDrift({ contextText, ledger, isFindable: (path) => archiveText.includes(path) });
    }
    this.host.update({ contextConfidence: report.confidence });
    if (report.missing.length === 0) return;
    this.host.update({ restored: renderReinsertion(report.missing) });
    const what = report.missing.map((m) => `${m.kind} "${m.text.length > 60 ? `${m.text.slice(0, 57)}…` : m.text}"`).join(', ');
    events.push(
      this.event(
        'drift',
        0,
        `Drift check: ${report.missing.length} item(s) missing after the checkpoint were restored from the ledger: ${what}`,
        'drift-detected',
      ),
    );
  }

  private startUpgrade(created: Checkpoint, model: Summarizer): void {
    const s = this.host.state;
    const summarize = this.summarizeFn(model);
    this.compaction.start(`upgrade:${created.id}`, async (cancellation) => {
      const { originals } = await this.archiveAccess();
      const request = {
        kind: 'history' as const,
        messages: await originals(created.messageIds),
        guide: guideFrom(s.ledger),
        targetTokens: targetTokensFor(0, this.host.options.checkpointTokens),
        references: {
          archive: this.host.paths.archive,
          offloaded: this.host.paths.offloaded,
          firstMessageId: created.messageIds[0] ?? '',
          lastMessageId: created.messageIds[created.messageIds.length - 1] ?? '',
        },
      };
      const summary = await summarize(request, cancellation);
      return { kind: 'upgrade', checkpointId: created.id, summary, tokens: await this.host.deps.counter.countText(summary.text) };
    });
  }

  /** A model summary that arrived after its floor replaces it, if the checkpoint is still as it was. */
  private applyUpgrade(events: CompressionEvent[]): void {
    if (this.compaction.peek()?.kind !== 'upgrade') return;
    const taken = this.compaction.take(() => true);
    if (!taken || taken.value.kind !== 'upgrade') return;
    const upgrade = taken.value;
    this.compaction.finish();
    const target = targetTokensFor(0, this.host.options.checkpointTokens);
    if (upgrade.summary.summarizedBy === this.floorSummarizer.name || upgrade.tokens > target * 1.25) return;
    const checkpoints = this.host.state.checkpoints.map((c) =>
      c.id === upgrade.checkpointId && c.age === 0
        ? { ...c, summary: upgrade.summary.text, summarizedBy: upgrade.summary.summarizedBy, currentTokens: upgrade.tokens }
        : c,
    );
    if (checkpoints.every((c, i) => c === this.host.state.checkpoints[i])) return;
    this.host.update({ checkpoints });
    events.push(
      this.event(
        'checkpoint',
        0,
        `The model's summary replaced the deterministic one in the latest checkpoint (${n(upgrade.tokens)} tokens)`,
        'checkpoint-created',
      ),
    );
  }

  /** Seed 002's second layer over the active context; the archive keeps the originals. */
  private async compressOldResults(events: CompressionEvent[]): Promise<boolean> {
    const s = this.host.state;
    const o = this.host.options;
    const result = await compressOldResults(s.active, {
      keepLast: o.recentMessagesKept,
      minTokens: o.compressResultsMinTokens,
      share: o.compressResultsShare,
      countText: (t) => this.host.deps.counter.countText(t),
      summarizer: this.floorSummarizer,
      guide: guideFrom(s.ledger),
      references: { archive: this.host.paths.archive, offloaded: this.host.paths.offloaded },
    });
    for (const c of result.compressed) {
      events.push(
        this.event(
          'compress-results',
          c.before - c.after,
          `Compressed an old ${c.toolName} result in place: ${n(c.before)} → ${n(c.after)} tokens (the original is in the archive)`,
          'compressed',
        ),
      );
    }
    if (result.compressed.length > 0) this.host.update({ active: result.messages });
    return result.compressed.length > 0;
  }

  private event(tier: Tier, savedTokens: number, detail: string, name: EngineEventName): CompressionEvent {
    return { at: this.host.deps.clock.now(), tier, savedTokens, detail, name };
  }
}

/** The summary's guide from the ledger: what the summary must serve. */
export function guideFrom(ledger: Ledger): SummaryGuide {
  return {
    intent: ledger.intent?.text ?? '',
    goals: ledger.goals.filter((g) => g.status === 'active').map((g) => g.text),
    decisions: ledger.decisions.filter((d) => d.locked).map((d) => d.text),
    progress: ledger.progress.map((p) => `${p.text} - ${p.status.toUpperCase()}`),
    ...(ledger.nextStep ? { nextStep: ledger.nextStep.text } : {}),
  };
}

function sumOf(view: RequestView, offset: number): number {
  let total = 0;
  view.messages.forEach((m, i) => {
    if (i >= offset) total += view.measured.perMessage.get(m.id) ?? 0;
  });
  return total;
}

function searchableText(m: Message): string {
  return m.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'toolCall' ? JSON.stringify(b.input) : b.content)).join('\n');
}
