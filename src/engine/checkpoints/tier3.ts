/**
 * Tier 3, checkpoints: when one is due, the range it takes, preparing it in the background from
 * ORANGE on so that at the trigger it applies at once, the deterministic summary when nothing is
 * ready and the model's summary replacing it when it arrives, and the patch that applies a
 * checkpoint (aging the older ones). Tier 3 reads the session's state; it never changes it: what it
 * produces is returned, and the request preparation applies it in order.
 */
import { NEVER_CANCELLED, type Cancellation } from '../cancellation';
import type { CompressionEvent, EngineEventName, Tier } from '../compressionEvent';
import { errorMessage } from '../errors';
import { newId } from '../ids';
import { offloadHugeUserMessages } from '../ledger/userMessageOffload';
import { RangeRecords } from '../ledger/rangeRecords';
import type { EngineOptions } from '../options';
import type { Clock, Logger, Store } from '../ports';
import type { StepResult } from '../session/contextSteps';
import type { SessionArchive } from '../session/sessionArchive';
import type { SessionPaths } from '../session/sessionPaths';
import type { SessionState } from '../session/sessionState';
import type { RequestView } from '../session/requestView';
import { summarizeInChunks } from '../summary/chunkedSummary';
import { CircuitBreaker } from '../summary/circuitBreaker';
import { DeterministicSummarizer } from '../summary/deterministicSummarizer';
import { summarizeResiliently } from '../summary/resilientSummary';
import type { Summarizer } from '../summary/summarizer';
import { guideFrom } from '../summary/summaryGuide';
import { formatCount } from '../text/numbers';
import type { TokenCounter } from '../tokens/counter';
import { messageContentText, type Message, type ToolCallBlock } from '../types';
import { AGE_LABELS, targetTokensFor } from './aging';
import type { Checkpoint } from './checkpoint';
import { planCheckpoint, type CheckpointPlan } from './checkpointPlan';
import { CheckpointPreparation } from './checkpointPreparation';
import { basisOf, prepareCheckpoint, TARGET_TOLERANCE, type CheckpointWork, type SummarizeFn } from './checkpointing';
import { checkCheckpointRecall, withRecalledFacts, type CheckpointRecall, type WrittenCheckpoint } from './checkpointRecall';
import { CallIndex } from './callIndex';
import type { Ledger, LedgerFact } from '../ledger/ledgerTypes';
import { outputLineFacts } from '../recall/outputLines';
import { extractFacts } from '../recall/extractFacts';
import { SpanFacts } from './spanFacts';
import { SpanOriginals } from './spanOriginals';
import type { Fact } from '../recall/fact';
import type { RecallSearch } from '../recall/recallCheck';
import type { RecallFigures } from '../recall/recallFigures';
import type { SessionSearch } from '../session/sessionSearch';

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

/**
 * Facts of a new span read for the earlier lines' pool, beyond the ones its summary gets.
 * @default 1000 — free room is often tens of thousands of tokens, and a line is a few dozen.
 */
export const FILL_POOL_FACTS = 1000;

/**
 * How Tier 3 chooses its range: reach the target usage (at the trigger), everything but the kept
 * messages (an explicit compression, or CRITICAL), or everything (before a fresh session).
 */
export type PlanMode = 'target' | 'all-but-recent' | 'everything';

/** What a background preparation produces: a checkpoint, or the model's summary for one applied with the deterministic summary. */
type Prepared = { readonly kind: 'checkpoint'; readonly work: CheckpointWork } | FollowUp;

/**
 * What follows a checkpoint applied while the user waited (with the deterministic summary, and
 * without its recall check): the model's summary when a model is at hand, and the recall check of
 * every checkpoint it wrote, applied at the next request if those checkpoints are still as they were.
 */
interface FollowUp {
  readonly kind: 'follow-up';
  /** The checked checkpoints, by id, and the summary each had when the follow-up started. */
  readonly replacements: readonly { readonly checkpoint: Checkpoint; readonly wasSummary: string }[];
  readonly ledgerFacts: readonly LedgerFact[];
  readonly recall: RecallFigures;
  /** The model that rewrote the new checkpoint's summary, when one did. */
  readonly upgradedBy?: string;
  /** The new checkpoint. */
  readonly newestId: string;
  /** Facts of the checked spans that no checkpoint holds, for the earlier lines' pool. */
  readonly fillFacts: readonly Fact[];
}

/** A checkpoint ready to apply, or why there is none. */
export interface CheckpointOutcome extends StepResult {
  readonly work?: CheckpointWork;
}

export interface Tier3Deps {
  /** The session's state as it stands (read only). */
  state(): SessionState;
  /** The options as they apply to the latest budget. */
  options(): EngineOptions;
  readonly archive: SessionArchive;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly paths: SessionPaths;
  /** The session's search over its originals, for the recall check. */
  readonly search: SessionSearch;
}

export class Tier3 {
  private readonly preparation = new CheckpointPreparation<Prepared>();
  private readonly breaker: CircuitBreaker;
  private readonly floorSummarizer: DeterministicSummarizer;
  /** Records of the ranges summarized, so the merged checkpoint's growing range is not read from its start again. */
  private readonly rangeRecords = new RangeRecords();
  /** Archived messages with their offloaded results as references, the merged checkpoint's growing span read once. */
  private readonly spanOriginals = new SpanOriginals();
  /** The facts of the spans checkpoints stand for, so aging does not read them again. */
  private readonly spanFacts = new SpanFacts();
  /** Tool calls of the archive by id, taken in as the archive grows. */
  private readonly callIndex = new CallIndex();
  /** Facts of the spans the last run summarized that no checkpoint holds, until a request adds them to the earlier lines. */
  private fillCandidates: readonly Fact[] | undefined;

  constructor(private readonly deps: Tier3Deps) {
    this.breaker = new CircuitBreaker(deps.clock);
    this.floorSummarizer = new DeterministicSummarizer({
      countText: (t) => deps.counter.countText(t),
      recordTools: (m) => this.rangeRecords.recordOf(m),
    });
  }

  /** ctx's own deterministic summarizer, which never fails and never waits on a model. */
  get deterministicSummarizer(): Summarizer {
    return this.floorSummarizer;
  }

  /** The background preparation's state: idle, preparing, ready, applying, failed or cancelled. */
  get preparationState(): string {
    return this.preparation.state;
  }

  /** Resolves when background work has settled. */
  settled(): Promise<void> {
    return this.preparation.settled();
  }

  /** Whether a checkpoint is due: at RED (or CRITICAL), or at the share of the available budget when so configured. */
  isDue(view: RequestView, level: string, budget: number): boolean {
    const o = this.deps.options();
    if (o.checkpointTrigger === 'available') {
      const available = Math.max(1, budget - view.contextTokens);
      return view.measured.total - view.contextTokens >= available * o.availableTriggerShare;
    }
    return level === 'RED' || level === 'CRITICAL';
  }

  /** Starts preparing a checkpoint in the background, planned for the growth expected by the trigger. */
  prepareInBackground(view: RequestView, budget: number, turn: TurnOptions): void {
    const state = this.preparation.state;
    if (state !== 'idle' && state !== 'failed' && state !== 'cancelled') return;
    const plan = this.plan(view, budget, 'target', Math.max(0, this.triggerTokens(view, budget) - view.measured.total));
    if (!plan) return;
    const summarize = this.summarizeFn(turn.summarizer);
    const existing = this.deps.state().checkpoints;
    const started = this.preparation.start(basisOf(existing, plan), async (cancellation) => ({
      kind: 'checkpoint',
      work: await this.work(plan, existing, summarize, cancellation, undefined, true),
    }));
    if (started) this.deps.logger.info(`Preparing a checkpoint of ${plan.messageIds.length} messages in the background.`);
  }

  /**
   * The checkpoint to apply now. At the trigger the user is waiting: a ready checkpoint applies,
   * or else the deterministic summary now (the model's replaces it later). An explicit request
   * waits for the model.
   */
  async checkpoint(view: RequestView, budget: number, turn: TurnOptions, mode: PlanMode, explicit: boolean): Promise<CheckpointOutcome> {
    const ready = !explicit
      ? this.preparation.take((basis, value) => value.kind === 'checkpoint' && this.stillApplies(basis, value.work.plan))
      : undefined;
    if (ready?.value.kind === 'checkpoint') return { work: ready.value.work };
    this.preparation.reset();
    const plan = this.plan(view, budget, mode);
    if (!plan) {
      return {
        events: [
          this.event(
            'checkpoint',
            0,
            'No checkpoint was needed: everything in the context is among the latest messages kept intact',
            'compression-skipped',
          ),
        ],
      };
    }
    turn.progress?.(`Summarizing ${plan.messageIds.length} messages into a checkpoint…`);
    try {
      // At the trigger the user is waiting: the recall check follows in the background (see `applied`).
      const summarize = explicit ? this.summarizeFn(turn.summarizer) : this.floor;
      const cancellation = turn.cancellation ?? NEVER_CANCELLED;
      return { work: await this.work(plan, this.deps.state().checkpoints, summarize, cancellation, turn.focus, explicit) };
    } catch (e) {
      this.preparation.reset();
      if (turn.cancellation?.isCancellationRequested) {
        return { events: [this.event('checkpoint', 0, 'Compression was cancelled; the context is unchanged', 'compression-skipped')] };
      }
      return {
        events: [this.event('checkpoint', 0, 'The checkpoint could not be made', 'compression-error')],
        warnings: [`The checkpoint could not be made (${errorMessage(e)}). The context is unchanged and nothing was lost.`],
      };
    }
  }

  /** The patch that applies a checkpoint: its messages leave the context, the checkpoints age, huge user messages go to files. */
  async applying(work: CheckpointWork): Promise<StepResult> {
    const s = this.deps.state();
    const taken = new Set(work.plan.messageIds);
    const active = s.active.filter((m) => !taken.has(m.id));
    const offloadedUsers = await offloadHugeUserMessages(s.ledger, {
      liveMessageIds: new Set(active.map((m) => m.id)),
      store: this.deps.store,
      folder: this.deps.paths.offloaded,
      now: this.deps.clock.now(),
    });
    const reasons = new Set(work.fallbackReasons);
    return {
      patch: {
        active,
        checkpoints: work.checkpoints,
        compressions: s.compressions + 1,
        restored: '',
        autoSnapshotArmed: true,
        checkpointsHeld: false,
        ledger: withRecalledFacts(offloadedUsers.ledger, work.ledgerFacts ?? []),
      },
      warnings: [
        ...[...reasons].map(
          (reason) => `The model's summary was not used (${reason}); ctx's deterministic summary stands in, and nothing was lost.`,
        ),
        ...(offloadedUsers.failures ?? []),
      ],
    };
  }

  /** What applying a checkpoint did, once the context after it is measured. */
  appliedEvents(work: CheckpointWork, tokensBefore: number, tokensAfter: number): CompressionEvent[] {
    const saved = Math.max(0, tokensBefore - tokensAfter);
    const by =
      work.created.summarizedBy === this.floorSummarizer.name ? 'deterministic summary' : `summary by ${work.created.summarizedBy}`;
    const events = [
      this.event(
        'checkpoint',
        saved,
        `Summarized ${work.plan.messageIds.length} messages → 1 summary (saved ~${formatCount(saved)} tokens; ` +
          `${work.created.range}, ${formatCount(work.created.currentTokens)} tokens, ${by})`,
        'checkpoint-created',
        work.created.id,
      ),
    ];
    for (const { from, to } of work.aged) {
      const wasTokens = from.reduce((sum, c) => sum + c.currentTokens, 0);
      const what = from.length > 1 ? `Merged ${from.length} checkpoints into one` : `Checkpoint ${to.range} aged to ${AGE_LABELS[to.age]}`;
      events.push(
        this.event(
          'age',
          Math.max(0, wasTokens - to.currentTokens),
          `${what}: ${formatCount(wasTokens)} → ${formatCount(to.currentTokens)} tokens, re-summarized from the archived originals`,
          'checkpoint-aged',
          to.id,
        ),
      );
    }
    if (work.recall) events.push(this.recallEvent(work.recall, work.created.id));
    events.push(
      this.event('checkpoint', 0, `Context compressed: ${formatCount(tokensBefore)} → ${formatCount(tokensAfter)} tokens`, 'compressed'),
    );
    return events;
  }

  private recallEvent(f: RecallFigures, checkpointId?: string): CompressionEvent {
    const detail = `Recall check: ${f.extracted} facts, ${f.kept} in the context, ${f.found} found by search, ${f.putBack} put back, ${f.lost} lost`;
    return { ...this.event('recall', 0, detail, 'recall-checked', checkpointId), recall: f };
  }

  /**
   * After a checkpoint is applied: the background preparation is over. A checkpoint applied while
   * the user waited gets its follow-up in the background: the model's summary when a model is at
   * hand, and the recall check it has not had yet.
   */
  applied(work: CheckpointWork, turn: TurnOptions, explicit: boolean): void {
    this.preparation.finish();
    this.fillCandidates = work.fillFacts;
    const model = !explicit && turn.summarizer && work.created.summarizedBy !== turn.summarizer.name ? turn.summarizer : undefined;
    if (model || !work.recall) this.startFollowUp(work, model);
  }

  /** A follow-up that finished replaces the checkpoints it checked, if they are still as they were. */
  takeUpgrade(): StepResult {
    if (this.preparation.peek()?.kind !== 'follow-up') return {};
    const taken = this.preparation.take(() => true);
    if (!taken || taken.value.kind !== 'follow-up') return {};
    const followUp = taken.value;
    this.preparation.finish();
    const current = this.deps.state().checkpoints;
    const byId = new Map(followUp.replacements.map((r) => [r.checkpoint.id, r]));
    const checkpoints = current.map((c) => {
      const r = byId.get(c.id);
      return r && r.checkpoint.age === c.age && r.wasSummary === c.summary ? r.checkpoint : c;
    });
    if (checkpoints.every((c, i) => c === current[i])) return {};
    if (followUp.fillFacts.length > 0) this.fillCandidates = [...(this.fillCandidates ?? []), ...followUp.fillFacts];
    const upgraded = followUp.upgradedBy ? checkpoints.find((c) => c.summarizedBy === followUp.upgradedBy && c.age === 0) : undefined;
    return {
      patch: { checkpoints, ledger: withRecalledFacts(this.deps.state().ledger, followUp.ledgerFacts) },
      events: [
        ...(upgraded
          ? [
              this.event(
                'checkpoint',
                0,
                `The model's summary replaced the deterministic one in the latest checkpoint (${formatCount(upgraded.currentTokens)} tokens)`,
                'checkpoint-upgraded',
                upgraded.id,
              ),
            ]
          : []),
        this.recallEvent(followUp.recall, followUp.newestId),
      ],
    };
  }

  /** Forgets whatever was prepared (a snapshot was restored: it no longer applies). */
  reset(): void {
    this.preparation.reset();
    this.fillCandidates = undefined;
  }

  dispose(): void {
    this.preparation.dispose();
  }

  /** The tokens at which Tier 3 fires, for planning ahead. */
  private triggerTokens(view: RequestView, budget: number): number {
    const o = this.deps.options();
    return o.checkpointTrigger === 'available'
      ? view.contextTokens + (budget - view.contextTokens) * o.availableTriggerShare
      : budget * o.thresholds.redAt;
  }

  private plan(view: RequestView, budget: number, mode: PlanMode, expectedGrowth = 0): CheckpointPlan | undefined {
    const o = this.deps.options();
    const state = this.deps.state();
    const active = state.active;
    const offset = view.messages.length - active.length;
    const everything = mode === 'everything';
    // Aging shrinks the existing checkpoints; plan with what they will take after it.
    const agedCheckpoints = state.checkpoints.reduce(
      (sum, c) => sum + targetTokensFor(Math.min(3, c.age + 1) as Checkpoint['age'], o.checkpointTokens),
      0,
    );
    const currentCheckpoints = state.checkpoints.reduce((sum, c) => sum + c.currentTokens, 0);
    return planCheckpoint({
      active,
      messageTokens: active.map((m) => view.measured.perMessage.get(m.id) ?? 0),
      fixedTokens: Math.max(0, view.measured.total - liveTokens(view, offset) - currentCheckpoints + agedCheckpoints),
      checkpointTokens: o.checkpointTokens,
      budget,
      targetUsage: mode === 'target' ? o.targetUsageAfterCheckpoint : 0,
      expectedGrowth,
      keepMessages: everything ? 0 : o.recentMessagesKept,
      keepTokens: everything ? 0 : Math.min(o.recentTokensKept, budget * o.targetUsageAfterCheckpoint * 0.5),
    });
  }

  private async work(
    plan: CheckpointPlan,
    existing: readonly Checkpoint[],
    summarize: SummarizeFn,
    cancellation: Cancellation,
    focus: string | undefined,
    checkRecall: boolean,
  ): Promise<CheckpointWork> {
    const state = this.deps.state();
    const { counter, clock, paths } = this.deps;
    const taken = new Set(plan.messageIds);
    const live = state.active.filter((m) => !taken.has(m.id));
    const factsOf = await this.factsReader(live);
    const work = await prepareCheckpoint(
      {
        plan,
        existing,
        guide: guideFrom(state.ledger),
        ...(focus ? { focus } : {}),
        checkpointTokens: this.deps.options().checkpointTokens,
        compressionNumber: state.compressions + 1,
        archivePath: paths.archive,
        offloadedFolder: paths.offloaded,
      },
      {
        ...(await this.archiveAccess()),
        summarize,
        floor: this.floor,
        recordTools: (m) => this.rangeRecords.recordOf(m),
        factsOf,
        countText: (t) => counter.countText(t),
        now: () => clock.now(),
        newId: () => newId('cp', clock.now()),
      },
      cancellation,
    );
    // More of the new span's facts than a summary asks for: what free room below the target can hold.
    const originals = await (await this.archiveAccess()).originals(plan.messageIds);
    // Then the lines its tools printed, shown only once those facts leave room.
    const pool = mergeFacts(factsOf(originals, FILL_POOL_FACTS), outputLineFacts(originals));
    if (!checkRecall) return { ...work, fillFacts: pool };
    const recall = await this.recall(work.checkpoints, work.written, state.ledger, live, cancellation);
    const created = recall.checkpoints.find((c) => c.id === work.created.id) ?? work.created;
    return {
      ...work,
      checkpoints: recall.checkpoints,
      created,
      ledgerFacts: recall.ledgerFacts,
      recall: recall.figures,
      fillFacts: mergeFacts(recall.leftovers, pool),
    };
  }

  /** Facts of a span, read with what stays live after it (an error fixed there counts as fixed) and every call archived. */
  private async factsReader(live: readonly Message[]): Promise<(messages: readonly Message[], maxFacts?: number) => Fact[]> {
    const archived = await this.deps.archive.read();
    const findCall = (id: string): ToolCallBlock | undefined => this.callIndex.find(archived.messages, id);
    const read = (messages: readonly Message[], maxFacts?: number) =>
      extractFacts(messages, { after: live, findCall, ...(maxFacts ? { maxFacts } : {}) });
    return (messages, maxFacts) => (maxFacts ? read(messages, maxFacts) : this.spanFacts.of(messages, (m) => read(m)));
  }

  /** The facts the last checkpoint left for the earlier lines' pool (design §4.1), once. */
  takeFillFacts(): readonly Fact[] {
    const pending = this.fillCandidates ?? [];
    this.fillCandidates = undefined;
    return pending;
  }

  /** The recall check of the checkpoints a run wrote (design §6.2), searching the session's originals. */
  private async recall(
    checkpoints: readonly Checkpoint[],
    written: readonly WrittenCheckpoint[],
    ledger: Ledger,
    live: readonly Message[],
    cancellation: Cancellation,
  ): Promise<CheckpointRecall> {
    const archived = await this.deps.archive.read();
    const originals = await this.deps.search.originals(archived, this.deps.state());
    const search: RecallSearch = async (query, top) =>
      originals(query, top).map((hit) => {
        const message = hit.messageId ? archived.byId(hit.messageId) : undefined;
        return { text: message ? messageContentText(message) : hit.excerpt };
      });
    return checkCheckpointRecall({
      checkpoints,
      written,
      ledger,
      live,
      search,
      countText: (t) => this.deps.counter.countText(t),
      checkpointTokens: this.deps.options().checkpointTokens,
      now: this.deps.clock.now(),
      cancellation,
    });
  }

  private startFollowUp(work: CheckpointWork, model: Summarizer | undefined): void {
    const paths = this.deps.paths;
    this.preparation.start(`follow-up:${work.created.id}`, async (cancellation): Promise<FollowUp> => {
      let written = work.written;
      let upgradedBy: string | undefined;
      if (model) {
        const { originals } = await this.archiveAccess();
        const created = work.created;
        const factsFor = written.find((w) => w.checkpoint.id === created.id)?.facts ?? [];
        const targetTokens = targetTokensFor(0, this.deps.options().checkpointTokens);
        const summary = await this.summarizeFn(model)(
          {
            kind: 'history',
            messages: await originals(created.messageIds),
            guide: guideFrom(this.deps.state().ledger),
            targetTokens,
            references: {
              archive: paths.archive,
              offloaded: paths.offloaded,
              firstMessageId: created.messageIds[0] ?? '',
              lastMessageId: created.messageIds[created.messageIds.length - 1] ?? '',
            },
            facts: factsFor,
            besideLedger: true,
          },
          cancellation,
        );
        const tokens = await this.deps.counter.countText(summary.text);
        if (summary.summarizedBy !== this.floorSummarizer.name && tokens <= targetTokens * TARGET_TOLERANCE) {
          upgradedBy = summary.summarizedBy;
          const upgraded: Checkpoint = { ...created, summary: summary.text, summarizedBy: summary.summarizedBy, currentTokens: tokens };
          written = written.map((w) => (w.checkpoint.id === created.id ? { ...w, checkpoint: upgraded } : w));
        }
      }
      const state = this.deps.state();
      const current = state.checkpoints.map((c) => written.find((w) => w.checkpoint.id === c.id)?.checkpoint ?? c);
      const recall = await this.recall(current, written, state.ledger, state.active, cancellation);
      const wasSummary = new Map(state.checkpoints.map((c) => [c.id, c.summary]));
      return {
        kind: 'follow-up',
        replacements: written.flatMap((w) => {
          const checked = recall.checkpoints.find((c) => c.id === w.checkpoint.id);
          const was = wasSummary.get(w.checkpoint.id);
          return checked && was !== undefined ? [{ checkpoint: checked, wasSummary: was }] : [];
        }),
        ledgerFacts: recall.ledgerFacts,
        recall: recall.figures,
        ...(upgradedBy ? { upgradedBy } : {}),
        newestId: work.created.id,
        fillFacts: mergeFacts(recall.leftovers, work.fillFacts ?? []),
      };
    });
  }

  /** The archived originals by id (offloaded results replaced by their reference), and archive positions. */
  private async archiveAccess(): Promise<{ originals(ids: readonly string[]): Promise<readonly Message[]>; position(id: string): number }> {
    const archived = await this.deps.archive.read();
    return {
      originals: async (ids) => this.spanOriginals.read(ids, archived, this.deps.state().offloads),
      position: (id) => archived.position(id),
    };
  }

  private get floor(): SummarizeFn {
    return async (request, cancellation) => ({
      text: await summarizeInChunks(this.floorSummarizer, request, { countText: (t) => this.deps.counter.countText(t), cancellation }),
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
        countText: (t) => this.deps.counter.countText(t),
        cancellation,
        timeoutMs: this.deps.options().summaryTimeoutMs,
      });
  }

  /** A prepared plan applies while the checkpoints are unchanged and its messages still open the context. */
  private stillApplies(basis: string, plan: CheckpointPlan): boolean {
    const state = this.deps.state();
    return basis === basisOf(state.checkpoints, plan) && plan.messageIds.every((id, i) => state.active[i]?.id === id);
  }

  private event(tier: Tier, savedTokens: number, detail: string, name: EngineEventName, checkpointId?: string): CompressionEvent {
    return { at: this.deps.clock.now(), tier, savedTokens, detail, name, ...(checkpointId ? { checkpointId } : {}) };
  }
}

function liveTokens(view: RequestView, offset: number): number {
  let total = 0;
  view.messages.forEach((m, i) => {
    if (i >= offset) total += view.measured.perMessage.get(m.id) ?? 0;
  });
  return total;
}

/** Facts of two lists, each key once, the best first. */
function mergeFacts(first: readonly Fact[], second: readonly Fact[]): Fact[] {
  const byKey = new Map<string, Fact>();
  for (const f of [...first, ...second]) if (!byKey.has(f.key)) byKey.set(f.key, f);
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}
