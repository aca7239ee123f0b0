/**
 * Tier 3, checkpoints: the one entry point the request preparation calls. It decides when a
 * checkpoint is due and what it takes (`checkpointTrigger.ts`), prepares it in the background from
 * ORANGE on so that at the trigger it applies at once, writes it (`checkpointing.ts`, with the
 * summarizers of `checkpointSummarizers.ts`: the deterministic summary when nothing is ready, a
 * model's when one is at hand), hands back the patch that applies it (`applyCheckpoint.ts`) and what
 * it did (`checkpointEvents.ts`), and runs the follow-up of a checkpoint applied while the user
 * waited (`checkpointFollowUp.ts`). Tier 3 reads the session's state; it never changes it: what it
 * produces is returned, and the request preparation applies it in order.
 */
import { NEVER_CANCELLED, type Cancellation } from '../cancellation';
import type { CompressionEvent, EngineEventName, EventKind } from '../model/compressionEvent';
import { errorMessage } from '../errors';
import { newId } from '../ids';
import type { Ledger } from '../model/ledgerTypes';
import type { EngineOptions } from '../options';
import type { Clock, Logger, Store } from '../ports';
import { extractFacts } from '../recall/extractFacts';
import type { Fact } from '../model/fact';
import { outputLineFactsOf } from '../recall/outputLines';
import { readToolSteps } from '../recall/toolSteps';
import { mergeFactLists } from '../recall/selectFacts';
import type { StepResult } from '../model/stepResult';
import type { RequestView } from '../model/requestView';
import type { ArchiveReader, OriginalsSearch } from '../model/sessionOriginals';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';
import type { ConversationCopy, Summarizer } from '../summary/summarizer';
import { conversationCopyOf } from '../summary/conversationSummary';
import { guideFrom } from '../summary/summaryGuide';
import type { TokenCounter } from '../tokens/counter';
import type { Message, ToolCallBlock } from '../types';
import { applyingCheckpoint } from './applyCheckpoint';
import { CallIndex } from './callIndex';
import type { Checkpoint } from '../model/checkpoint';
import { appliedEvents, tierEvent } from './checkpointEvents';
import { followUpPatch, writeFollowUp, type FollowUp, type FollowUpDeps } from './checkpointFollowUp';
import type { CheckpointPlan } from './checkpointPlan';
import { BackgroundCheckpoint } from './backgroundCheckpoint';
import { checkCheckpointRecall, recallSearchOver, type CheckpointRecall, type WrittenCheckpoint } from './checkpointRecall';
import { CheckpointSummarizers } from './checkpointSummarizers';
import { counted } from '../text/numbers';
import type { TurnOptions } from './turnOptions';
import { checkpointDue, planFor, triggerTokens, type PlanMode } from './checkpointTrigger';
import { basisOf, prepareCheckpoint, type CheckpointWork, type SummarizeFn } from './checkpointing';
import { SpanFacts } from './spanFacts';
import { spanContentFacts } from '../recall/contentLines';
import { SpanOriginals, type OriginalSpan } from './spanOriginals';

/**
 * Facts of a new span read for the earlier lines' pool, beyond the ones its summary gets.
 * @default 1000 — the earlier lines' room is often thousands of tokens, and a line is a few dozen.
 */
export const FILL_POOL_FACTS = 1000;

/**
 * How many tokens short of the range a checkpoint needs now a prepared one may fall and still be applied, as a share
 * of the budget. A prepared checkpoint was planned for the growth expected at ORANGE; when more came (a large
 * message), one that falls further short would leave a context that reaches the trigger again soon, and a rebase
 * costs the whole request: the range is summarized anew.
 * @default 0.1 — a tenth of the budget is under a quarter of the stretch between two rebases.
 */
export const PREPARED_SHORTFALL_SHARE = 0.1;

/**
 * How far ahead of the trigger the next checkpoint is prepared in the background, as a share of the budget: a few
 * rounds of a turn, time enough for a model's summary, and late enough that the range it takes is most of the one
 * needed at the trigger.
 * @default 0.1
 */
export const PREPARE_AHEAD_SHARE = 0.1;

/** How the basis of a follow-up's background work begins: it prepares no checkpoint. */
const FOLLOW_UP_BASIS = 'follow-up:';

/** Whether a prepared plan takes about as much as the plan needed now (see {@link PREPARED_SHORTFALL_SHARE}). */
function coversEnough(prepared: CheckpointPlan, needed: CheckpointPlan | undefined, budget: number): boolean {
  return needed === undefined || prepared.tokens >= needed.tokens - PREPARED_SHORTFALL_SHARE * budget;
}

/** Facts of messages, and of a checkpoint's span. */
interface FactsReader {
  /** With `lines`, for the earlier lines' pool: the agent's narration too, and its short lines as written (see `ExtractOptions`). */
  ofMessages(messages: readonly Message[], maxFacts?: number, lines?: boolean): Promise<Fact[]>;
  ofSpan(span: OriginalSpan): Promise<Fact[]>;
}

/** What a background preparation produces: a checkpoint, or the follow-up of one applied while the user waited. */
type Prepared = { readonly kind: 'checkpoint'; readonly work: CheckpointWork } | FollowUp;

/** A checkpoint ready to apply, or why there is none. */
export interface CheckpointOutcome extends StepResult {
  readonly work?: CheckpointWork;
}

export interface Tier3Deps {
  /** The session's state as it stands (read only). */
  state(): SessionState;
  /** The options as they apply to the latest budget. */
  options(): EngineOptions;
  readonly archive: ArchiveReader;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly paths: SessionPaths;
  /** The session's search over its originals, for the recall check. */
  readonly search: OriginalsSearch;
}

export class Tier3 {
  private readonly background = new BackgroundCheckpoint<Prepared>();
  private readonly summarizers: CheckpointSummarizers;
  /** What was read of the spans summarized (offloaded results as references), so the merged checkpoint's growing span is read once. */
  private readonly spanOriginals = new SpanOriginals();
  /** The facts of the spans checkpoints stand for, so aging does not read them again. */
  private readonly spanFacts = new SpanFacts();
  /** Tool calls of the archive by id, taken in as the archive grows. */
  private readonly callIndex = new CallIndex();
  /** Facts of the spans the last run summarized that no checkpoint holds, until a request adds them to the earlier lines. */
  private fillCandidates: readonly Fact[] | undefined;

  constructor(private readonly deps: Tier3Deps) {
    this.summarizers = new CheckpointSummarizers({
      clock: deps.clock,
      countText: (t) => deps.counter.countText(t),
      timeoutMs: () => deps.options().summaryTimeoutMs,
    });
  }

  /** ctx's own deterministic summarizer, which never fails and never waits on a model. */
  get deterministicSummarizer(): Summarizer {
    return this.summarizers.deterministic;
  }

  /** The background checkpoint's state: idle, preparing, ready, applying, failed or cancelled. */
  get backgroundCheckpointState(): string {
    return this.background.state;
  }

  /** Resolves when background work has settled. */
  settled(): Promise<void> {
    return this.background.settled();
  }

  /** Whether a checkpoint is due (see `checkpointTrigger.ts`). */
  isDue(view: RequestView, level: string, budget: number): boolean {
    return checkpointDue(view, level, budget, this.deps.options());
  }

  /**
   * Whether the trigger is near enough to prepare the next checkpoint in the background: within
   * {@link PREPARE_AHEAD_SHARE} of the budget. Prepared earlier, a checkpoint would take only the messages there are
   * then, and fall short of the range needed at the trigger.
   */
  dueSoon(view: RequestView, budget: number): boolean {
    return view.measured.total >= triggerTokens(view, budget, this.deps.options()) - PREPARE_AHEAD_SHARE * budget;
  }

  /** Starts preparing a checkpoint in the background, planned for the growth expected by the trigger. */
  prepareInBackground(
    view: RequestView,
    budget: number,
    turn: TurnOptions,
    growth = Math.max(0, triggerTokens(view, budget, this.deps.options()) - view.measured.total),
  ): void {
    const state = this.background.state;
    if (state !== 'idle' && state !== 'failed' && state !== 'cancelled') return;
    const plan = this.plan(view, budget, 'target', growth);
    if (!plan) return;
    const summarize = this.summarizers.with(turn.summarizer);
    const existing = this.deps.state().checkpoints;
    const conversation = this.conversationFor(view, budget, plan, turn);
    const started = this.background.start(basisOf(existing, plan), async (cancellation) => ({
      kind: 'checkpoint',
      work: await this.work(plan, existing, summarize, cancellation, undefined, true, conversation),
    }));
    if (started) this.deps.logger.info(`Preparing a checkpoint of ${counted(plan.messageIds.length, 'message')} in the background.`);
  }

  /**
   * Whether the checkpoint due now waits for the model's summary. Below CRITICAL the request still fits: it goes as
   * the one before plus the new messages (a cache read), and the model's checkpoint, recall-checked, applies at a
   * later request in one rebase, where the deterministic one now and the model's after it would take two. Starts the
   * preparation, planned for the rounds it may take, when none is under way, or when the one ready no longer applies
   * (the context grew past what it takes, or changed under it); a preparation that failed is not waited for again.
   */
  waitsForModel(view: RequestView, budget: number, turn: TurnOptions): boolean {
    if (!turn.summarizer) return false;
    const state = this.background.state;
    if (state === 'preparing') return !this.background.basis?.startsWith(FOLLOW_UP_BASIS);
    if (state === 'ready') {
      const ready = this.background.peek();
      const basis = this.background.basis;
      if (
        ready?.kind !== 'checkpoint' ||
        (basis !== undefined && this.applies(basis, ready.work, this.plan(view, budget, 'target'), budget))
      ) {
        return false;
      }
      this.background.reset();
    } else if (state !== 'idle' && state !== 'cancelled') return false;
    this.prepareInBackground(view, budget, turn, PREPARE_AHEAD_SHARE * budget);
    return this.background.state === 'preparing';
  }

  /** Whether a checkpoint prepared on `basis` can be applied now: its basis still stands and it takes about what `needed` takes. */
  private applies(basis: string, work: CheckpointWork, needed: CheckpointPlan | undefined, budget: number): boolean {
    return this.stillApplies(basis, work.plan) && coversEnough(work.plan, needed, budget);
  }

  /**
   * The checkpoint to apply now. At the trigger the user is waiting: a ready checkpoint applies,
   * or else the deterministic summary now (the model's replaces it later). An explicit request
   * waits for the model.
   */
  async checkpoint(
    view: RequestView,
    budget: number,
    turn: TurnOptions,
    mode: PlanMode,
    explicit: boolean,
    sentView: RequestView = view,
  ): Promise<CheckpointOutcome> {
    const plan = this.plan(view, budget, mode);
    const ready = !explicit
      ? this.background.take((basis, value) => value.kind === 'checkpoint' && this.applies(basis, value.work, plan, budget))
      : undefined;
    if (ready?.value.kind === 'checkpoint') return { work: ready.value.work };
    this.background.reset();
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
    turn.progress?.(`Summarizing ${counted(plan.messageIds.length, 'message')} into a checkpoint…`);
    try {
      // At the trigger the user is waiting: a model's summary and its recall check follow in the background (see
      // `applied`), and replace this one at a rebase of their own. Without a model there is nothing to wait for: the
      // recall check runs now, so the checkpoint needs no second rebase.
      const summarize = explicit ? this.summarizers.with(turn.summarizer) : this.summarizers.floor;
      const cancellation = turn.cancellation ?? NEVER_CANCELLED;
      const checkRecall = explicit || turn.summarizer === undefined;
      const conversation = this.conversationFor(sentView, budget, plan, turn);
      return { work: await this.work(plan, this.deps.state().checkpoints, summarize, cancellation, turn.focus, checkRecall, conversation) };
    } catch (e) {
      this.background.reset();
      if (turn.cancellation?.isCancellationRequested) {
        return { events: [this.event('checkpoint', 0, 'Compression was cancelled; the context is unchanged', 'compression-skipped')] };
      }
      return {
        events: [this.event('checkpoint', 0, 'The checkpoint could not be made', 'compression-error')],
        warnings: [`The checkpoint could not be made (${errorMessage(e)}). The context is unchanged and nothing was lost.`],
      };
    }
  }

  /** The patch that applies a checkpoint (see `applyCheckpoint.ts`). */
  applying(work: CheckpointWork, budgetTokens?: number): Promise<StepResult> {
    const { store, paths, clock } = this.deps;
    return applyingCheckpoint(work, this.deps.state(), {
      store,
      paths,
      now: clock.now(),
      ...(budgetTokens !== undefined ? { budgetTokens } : {}),
    });
  }

  /** What applying a checkpoint did, once the context after it is measured. */
  appliedEvents(work: CheckpointWork, tokensBefore: number, tokensAfter: number): CompressionEvent[] {
    return appliedEvents(work, tokensBefore, tokensAfter, this.deps.clock.now(), this.summarizers.deterministic.name);
  }

  /**
   * After a checkpoint is applied: the background preparation is over. A checkpoint applied while
   * the user waited gets its follow-up in the background: the model's summary when a model is at
   * hand, and the recall check it has not had yet.
   */
  applied(work: CheckpointWork, turn: TurnOptions, explicit: boolean): void {
    this.background.finish();
    this.fillCandidates = work.fillFacts;
    const model = !explicit && turn.summarizer && work.created.summarizedBy !== turn.summarizer.name ? turn.summarizer : undefined;
    if (model || !work.recall) this.startFollowUp(work, model);
  }

  /** A follow-up that finished replaces the checkpoints it checked, if they are still as they were. */
  takeUpgrade(): StepResult {
    if (this.background.peek()?.kind !== 'follow-up') return {};
    const taken = this.background.take(() => true);
    if (!taken || taken.value.kind !== 'follow-up') return {};
    const followUp = taken.value;
    this.background.finish();
    const applied = followUpPatch(followUp, this.deps.state(), this.deps.clock.now());
    if (!applied) return {};
    if (followUp.fillFacts.length > 0) this.fillCandidates = [...(this.fillCandidates ?? []), ...followUp.fillFacts];
    return applied;
  }

  /** Forgets whatever was prepared (a snapshot was restored: it no longer applies). */
  reset(): void {
    this.background.reset();
    this.fillCandidates = undefined;
  }

  dispose(): void {
    this.background.dispose();
  }

  /**
   * The conversation as it is about to be sent, for a summary asked as its next request: when the summarizer is the
   * conversation's model (or there is none, and the request is only counted) and the conversation fits the budget.
   */
  private conversationFor(view: RequestView, budget: number, plan: CheckpointPlan, turn: TurnOptions): ConversationCopy | undefined {
    if (turn.summarizer && !turn.summarizer.summarizeConversation) return undefined;
    if (view.measured.total > budget) return undefined;
    return conversationCopyOf(view.messages, view.measured.messageTokens, plan.messageIds);
  }

  private plan(view: RequestView, budget: number, mode: PlanMode, expectedGrowth = 0): CheckpointPlan | undefined {
    return planFor(view, budget, mode, this.deps.options(), this.deps.state(), expectedGrowth);
  }

  private async work(
    plan: CheckpointPlan,
    existing: readonly Checkpoint[],
    summarize: SummarizeFn,
    cancellation: Cancellation,
    focus: string | undefined,
    checkRecall: boolean,
    conversation: ConversationCopy | undefined,
  ): Promise<CheckpointWork> {
    const state = this.deps.state();
    const { counter, clock, paths } = this.deps;
    const taken = new Set(plan.messageIds);
    const live = state.active.filter((m) => !taken.has(m.id));
    const facts = await this.factsReader(live);
    const access = await this.archiveAccess();
    const fresh = await access.originals(plan.messageIds);
    const work = await prepareCheckpoint(
      {
        plan,
        existing,
        guide: guideFrom(state.ledger),
        ...(focus ? { focus } : {}),
        checkpointTokens: this.deps.options().checkpointTokens,
        compressionNumber: state.checkpointsMade + 1,
        archivePath: paths.archive,
        offloadedFolder: paths.offloaded,
        ...(conversation ? { conversation } : {}),
      },
      {
        originals: (ids) => (ids === plan.messageIds ? Promise.resolve(fresh) : access.originals(ids)),
        position: access.position,
        summarize,
        floor: this.summarizers.floor,
        factsOf: facts.ofSpan,
        countText: (t) => counter.countText(t),
        now: () => clock.now(),
        newId: () => newId('cp', clock.now()),
      },
      cancellation,
    );
    // More of the new span's facts than a summary asks for: what the earlier lines' room can hold.
    const originals = await fresh.messages();
    // Then the lines its tools printed, shown only once those facts leave room, and last what they read, printed and were given.
    const steps = readToolSteps(originals);
    const pool = mergeFactLists(await facts.ofMessages(originals, FILL_POOL_FACTS, true), [
      ...outputLineFactsOf(steps, originals),
      ...spanContentFacts(steps),
    ]);
    if (!checkRecall) return { ...work, fillFacts: pool };
    const recall = await this.recall(work.checkpoints, work.written, state.ledger, live, cancellation);
    const created = recall.checkpoints.find((c) => c.id === work.created.id) ?? work.created;
    return {
      ...work,
      checkpoints: recall.checkpoints,
      created,
      ledgerFacts: recall.ledgerFacts,
      recall: recall.figures,
      fillFacts: mergeFactLists(recall.leftovers, pool),
    };
  }

  /**
   * Facts of messages, read with what stays live after them (an error fixed there counts as fixed) and every call
   * archived; and of a span, remembered for the spans checkpoints stand for (see `spanFacts.ts`).
   */
  private async factsReader(live: readonly Message[]): Promise<FactsReader> {
    const archived = await this.deps.archive.read();
    const offloads = this.deps.state().offloads;
    const ofMessages = async (messages: readonly Message[], maxFacts?: number, lines = false): Promise<Fact[]> => {
      const calls = await this.callIndex.callsFor(messages, live, archived);
      const findCall = (id: string): ToolCallBlock | undefined => calls.get(id);
      return extractFacts(messages, { after: live, findCall, narration: lines, asWritten: lines, ...(maxFacts ? { maxFacts } : {}) });
    };
    return {
      ofMessages,
      ofSpan: (span) =>
        this.spanFacts.of(span.ids, async (ids) =>
          ofMessages(ids === span.ids ? await span.messages() : await this.spanOriginals.messagesOf(ids, archived, offloads)),
        ),
    };
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
    const search = await recallSearchOver(this.deps.archive, this.deps.search, this.deps.state());
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
    const deps: FollowUpDeps = {
      state: () => this.deps.state(),
      paths: this.deps.paths,
      checkpointTokens: () => this.deps.options().checkpointTokens,
      countText: (t) => this.deps.counter.countText(t),
      originals: async (ids) => (await this.archiveAccess()).originals(ids),
      deterministic: this.summarizers.deterministic.name,
      recall: (checkpoints, written, ledger, live, cancellation) => this.recall(checkpoints, written, ledger, live, cancellation),
    };
    const summarize = model ? this.summarizers.with(model) : undefined;
    this.background.start(`${FOLLOW_UP_BASIS}${work.created.id}`, (cancellation) => writeFollowUp(work, summarize, deps, cancellation));
  }

  /** The archived originals by id (offloaded results replaced by their reference), and archive positions. */
  private async archiveAccess(): Promise<{ originals(ids: readonly string[]): Promise<OriginalSpan>; position(id: string): number }> {
    const archived = await this.deps.archive.read();
    return {
      originals: async (ids) => this.spanOriginals.read(ids, archived, this.deps.state().offloads),
      position: (id) => archived.position(id),
    };
  }

  /** A prepared plan applies while the checkpoints are unchanged and its messages still open the context. */
  private stillApplies(basis: string, plan: CheckpointPlan): boolean {
    const state = this.deps.state();
    return basis === basisOf(state.checkpoints, plan) && plan.messageIds.every((id, i) => state.active[i]?.id === id);
  }

  private event(kind: EventKind, savedTokens: number, detail: string, name: EngineEventName, checkpointId?: string): CompressionEvent {
    return tierEvent(this.deps.clock.now(), kind, savedTokens, detail, name, checkpointId);
  }
}
