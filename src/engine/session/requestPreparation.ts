/**
 * What happens to the context before a request, in order, in one place. Every step reads the
 * state as it stands and returns what it produced; the preparation applies it to the state cell
 * and renders the request view again only when a step changed something.
 *
 * A request is the previous one plus the new messages, byte for byte, until a rebase: a step that
 * rewrites what was already sent (see `promptCache/requestLayout.ts`). Rebases are batched so that
 * each one pays for the prompt cache it invalidates:
 *
 *   1. A model summary that arrived in the background replaces its deterministic stand-in (a rebase
 *      right after the checkpoint it belongs to, while the request is smallest).
 *   2. From 80%: a snapshot, once per rise.
 *   3. At the trigger (RED), with a model to summarize and nothing ready, the request goes as the one before
 *      plus the new messages while the model's checkpoint is prepared, and the rebase comes when it is ready (or
 *      at CRITICAL): one rebase, not a deterministic stand-in now and the model's summary after it.
 *      Otherwise the rebase: tier 2 (old write/edit inputs whose content is on disk give
 *      up their copy), the watermark a checkpoint tool asked for, old large results compressed in
 *      place (from 80%), then Tier 3 if the context is still above the target: a checkpoint, a
 *      snapshot before it, the drift check after it; the earlier lines get their room for the
 *      stretch until the next rebase. Within a tenth of the budget of the trigger, the next checkpoint is
 *      prepared in the background.
 *   4. Between rebases, a step of the rebase runs on its own only when it clears a quarter of the
 *      budget (it pays for the cache it invalidates): tier 2 from 50%, the watermark, old results
 *      compressed in place from 80%. Otherwise it waits for the next rebase.
 *   5. Still CRITICAL: attached context (blocks nobody in the session wrote) goes to files until below RED;
 *      still over the budget: the live tool results, then the user's longest texts, go to files until below RED.
 *      A rebase at CRITICAL gave the earlier lines no room: once these steps have made some, they get what the
 *      request has below RED, up to their share.
 *   6. The context message is frozen as sent: the next requests send it unchanged until a rebase.
 *   7. CRITICAL: a snapshot and the offer of a fresh session.
 *   8. The protected part over its share of the ledger: said once when it goes over, never a level of its own.
 *
 * "Compress context" is a rebase at once, after one snapshot of the context as it was, so the whole
 * compression can be undone.
 *
 * Nothing leaves the context while the archive misses a message (a full disk): the rebase waits
 * until it is whole again.
 */
import { formatCount } from '../text/numbers';
import type { CriticalOffer } from '../model/preparedContext';
import type { Fact } from '../model/fact';
import { frozenFor } from '../model/frozenContext';
import {
  addEarlierLines,
  earlierPoolTokensFor,
  earlierPrintedRoomOf,
  earlierRoomAtRebase,
  earlierRoomFor,
} from '../checkpoints/earlierLines';
import type { PlanMode } from '../checkpoints/checkpointTrigger';
import type { Tier3 } from '../checkpoints/tier3';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { CompressionEvent } from '../model/compressionEvent';
import { EMPTY_CACHE_TALLY, withSummaryRequest } from '../model/cacheTally';
import type { SentRequests } from './sentRequests';
import { driftStep } from '../drift/driftStep';
import type { Level } from '../levels';
import { levelChange, type LevelPoint } from '../levelWording';
import type { EngineOptions } from '../options';
import type { Clock, Logger, Store, WorkspaceFiles } from '../ports';
import type { TokenCounter } from '../tokens/counter';
import {
  compressOldResultsStep,
  moveWatermarkBeforeRecent,
  offloadAttachmentsStep,
  offloadToFitStep,
  resolvePendingCheckpoint,
  truncateInputsStep,
  watermarkStep,
} from './contextSteps';
import { NOTHING, type StepResult } from '../model/stepResult';
import { levelOfView, type RequestView } from '../model/requestView';
import type { RequestRenderer } from './requestRenderer';
import type { SessionArchive } from './sessionArchive';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionSnapshots } from './sessionSnapshots';
import type { SessionState } from '../model/sessionState';
import type { SessionStateCell } from './stateCell';

/** What a preparation produced: the view to send, what the steps did, and where the context stood before them. */
export interface Preparation {
  readonly view: RequestView;
  readonly events: readonly CompressionEvent[];
  /** The view before any step acted (the highest point of this request). */
  readonly before: RequestView;
  readonly critical?: CriticalOffer;
}

export interface PreparationDeps {
  readonly cell: SessionStateCell;
  readonly archive: SessionArchive;
  readonly renderer: RequestRenderer;
  readonly tier3: Tier3;
  /** What results offloaded since the last request said beyond their previews, once. */
  readonly offloadedFacts: () => readonly Fact[];
  readonly snapshots: SessionSnapshots;
  readonly files: WorkspaceFiles;
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly paths: SessionPaths;
  /** The requests sent: what a summary asked as the conversation's next request reads from the cache. */
  readonly sent: SentRequests;
  /** The options as they apply to the latest budget. */
  options(): EngineOptions;
}

export class RequestPreparation {
  /** Whether the last request's protected part was over its share: said when it goes over, not on every request. */
  private protectedOverShare = false;
  /** Whether the user was told the request is over the budget since it last fitted. */
  private overBudgetSaid = false;

  constructor(private readonly deps: PreparationDeps) {}

  /** The steps before a request, in the order of this file's header. */
  async beforeRequest(budget: number, turn: TurnOptions): Promise<Preparation> {
    const { archive, tier3 } = this.deps;
    const o = this.deps.options();
    const run = await RequestRun.start(this.deps, budget);

    await run.step(tier3.takeUpgrade());
    if (!archive.complete) return this.sent(run);

    if (run.usage >= o.autoSnapshotAt && run.state.autoSnapshotArmed) {
      await run.step({ patch: { autoSnapshotArmed: false } });
      await run.step(this.deps.snapshots.take('auto', undefined, run.state, run.view.measured.total));
    }

    const criticalBefore = run.level() === 'CRITICAL';
    // After an undo, what it brought back stays until the context is CRITICAL or the user compresses.
    const held = run.state.checkpointsHeld && !criticalBefore;
    let rebased = false;
    if (!held && tier3.isDue(run.view, run.level(), budget)) {
      if (criticalBefore || !tier3.waitsForModel(run.view, budget, turn)) {
        await this.rebase(run, turn, criticalBefore ? 'all-but-recent' : 'target');
        rebased = true;
      }
    } else {
      await this.rewritesThatPay(run);
      if (tier3.dueSoon(run.view, budget)) tier3.prepareInBackground(run.view, budget, turn);
    }
    await this.addOffloadedLines(run);
    if (run.level() === 'CRITICAL') await run.step(this.offloadAttachments(run));
    // Over the budget, the earlier lines (copies of what the archive holds) leave before any live block goes to a
    // file when that is enough, and after them when it is; never for a request that would not fit without them either.
    // Instructions larger than the budget leave nothing to win: the live messages stay, and the user is told.
    if (run.view.measured.total > run.budget && instructionTokens(run.view) <= run.budget) {
      await this.fitWithoutEarlierLines(run);
      await run.step(this.offloadToFit(run));
      await this.fitWithoutEarlierLines(run);
    }
    // After every step that can make room, since a message sent to a file to fit makes room as a checkpoint does.
    if (rebased) await this.earlierLinesBackWithRoom(run);
    this.sayProtectedOverShare(run.view.ledgerOverflow, o.ledgerShare);
    this.sayOverBudget(run);

    if (!criticalBefore && run.level() !== 'CRITICAL') return this.sent(run);
    const snapshot = await this.deps.snapshots.take('critical', undefined, run.state, run.view.measured.total);
    await run.step(snapshot);
    const reason = criticalReason(run.point(run.before), run.point(run.view));
    await run.step({
      events: [
        {
          at: this.deps.clock.now(),
          kind: 'critical',
          savedTokens: 0,
          detail: `${reason} A checkpoint and a snapshot were taken; continue in a fresh session from the checkpoint.`,
          name: 'rollover-complete',
        },
      ],
    });
    return this.sent(run, { reason, ...(snapshot.summary ? { snapshot: snapshot.summary.name } : {}) });
  }

  /**
   * The rebase at the trigger: everything that rewrites what was sent, at once. Tier 2 and the watermark first; the
   * earlier lines' room for the stretch to the next rebase; then a checkpoint when the context, those lines
   * included, is still above its target.
   */
  private async rebase(run: RequestRun, turn: TurnOptions, mode: PlanMode): Promise<void> {
    const { logger, clock, counter, files, tier3 } = this.deps;
    const o = this.deps.options();
    await run.step(truncateInputsStep(run.state, o.recentMessagesKept, { files, counter, now: clock.now() }));
    await run.step(resolvePendingCheckpoint(run.state, logger));
    await run.step(watermarkStep(run.state, counter, logger, clock.now()));
    if (run.usage >= o.compressResultsAt) await run.step(this.compressOldResults(run.state));
    await this.giveEarlierLinesRoom(run, mode === 'target');
    const overTarget = run.usage > o.targetUsageAfterCheckpoint;
    if (mode !== 'target' || overTarget || tier3.isDue(run.view, run.level(), run.budget)) await this.checkpoint(run, turn, mode, false);
    await this.addOffloadedLines(run);
    if (run.level() === 'CRITICAL') await this.giveEarlierLinesRoom(run, false);
  }

  /**
   * Between rebases, a step that rewrites what was sent runs only when it pays for the cache it invalidates: when it
   * takes the context down by {@link REWRITE_PAYS_SHARE} of the budget. Tier 2 (from 50%), the watermark a checkpoint
   * tool asked for, old large results compressed in place (from 80%); each otherwise waits for the next rebase.
   */
  private async rewritesThatPay(run: RequestRun): Promise<void> {
    const { logger, clock, counter, files } = this.deps;
    const o = this.deps.options();
    const pays = async (step: Promise<StepResult>) => {
      const result = await step;
      const saved = (result.events ?? []).reduce((sum, e) => sum + e.savedTokens, 0);
      if (saved >= REWRITE_PAYS_SHARE * run.budget) await run.step(result);
    };
    if (run.usage >= o.truncateInputsAt) {
      await pays(truncateInputsStep(run.state, o.recentMessagesKept, { files, counter, now: clock.now() }));
    }
    await run.step(resolvePendingCheckpoint(run.state, logger));
    await pays(watermarkStep(run.state, counter, logger, clock.now()));
    if (run.usage >= o.compressResultsAt) await pays(this.compressOldResults(run.state));
  }

  /**
   * "Compress context": every verified input outside the latest messages is truncated, the
   * watermark moves to the last tool call before them, and everything but the latest messages
   * becomes a checkpoint, written by the model when one is given. A rebase, as at the trigger.
   * Cancelling leaves the context as it was.
   */
  async compressNow(budget: number, turn: TurnOptions): Promise<Preparation> {
    const { cell, archive, tier3, logger, clock, counter, files } = this.deps;
    const o = this.deps.options();
    const run = await RequestRun.start(this.deps, budget);
    if (!archive.complete) {
      cell.warn('Compression was skipped: the archive could not be written, and nothing is removed from the context until it is.');
      return this.sent(run);
    }
    // One snapshot before everything the compression does, so undoing it puts back the context as it was.
    await run.step(this.deps.snapshots.take('before-checkpoint', undefined, run.state, run.view.measured.total));
    await run.step(truncateInputsStep(run.state, o.recentMessagesKept, { files, counter, now: clock.now() }));
    await run.step(moveWatermarkBeforeRecent(run.state, o.recentMessagesKept, logger));
    await run.step(watermarkStep(run.state, counter, logger, clock.now()));
    await run.step(tier3.takeUpgrade());
    await run.step(this.compressOldResults(run.state));
    await this.giveEarlierLinesRoom(run, true);
    await this.checkpoint(run, turn, 'all-but-recent', true, true);
    await this.addOffloadedLines(run);
    await this.keepEarlierLinesWithin(run, run.before.measured.total - 1);
    return this.sent(run);
  }

  /**
   * An explicit compression leaves the request smaller than it found it: the earlier lines take no more than the room
   * the other steps freed (a compression early in a session frees little, and its lines would make it look larger).
   */
  private async keepEarlierLinesWithin(run: RequestRun, limit: number): Promise<void> {
    const over = run.view.measured.total - limit;
    if (over <= 0 || run.view.earlierTokens === 0) return;
    await this.setEarlierRoom(run, earlierRoomFor(Math.max(0, run.view.earlierTokens - over), run.budget));
  }

  /** Summarizes every message into a checkpoint, the step before starting a fresh session from it. */
  async checkpointEverything(budget: number, turn: TurnOptions): Promise<Preparation> {
    const run = await RequestRun.start(this.deps, budget);
    if (run.state.active.length > 0 && this.deps.archive.complete) await this.checkpoint(run, turn, 'everything', true);
    return this.sent(run);
  }

  /**
   * The preparation's result, with the context message frozen as it is sent: the next requests send it unchanged
   * until a rebase lets go of it (see `model/frozenContext.ts`). A context with no context message yet freezes that
   * too, so one does not appear at the front of a later request by itself.
   */
  private async sent(run: RequestRun, critical?: CriticalOffer): Promise<Preparation> {
    if (frozenFor(run.state.frozenContext, run.budget) === undefined) {
      await run.step({
        patch: { frozenContext: { sections: run.view.sections, budget: run.budget, ledgerOverflow: run.view.ledgerOverflow } },
      });
    }
    return run.result(critical);
  }

  /**
   * Tells the user once when what must never be summarized goes over its share of the window: it stays whole, the
   * rest of the context makes do with less room, and a fresh session would carry the same part.
   */
  private sayProtectedOverShare(over: boolean, share: number): void {
    if (over && !this.protectedOverShare) {
      this.deps.cell.warn(
        'What must never be summarized (the intent, goals, decisions and your messages) takes more than its share of the ' +
          `context window (${Math.round(share * 100)}%). It is kept whole; the rest of the conversation is compressed into the room left.`,
      );
    }
    this.protectedOverShare = over;
  }

  /**
   * Tells the user once, in one line, when the request is still over the budget after every step: what ctx must send
   * as it is (the caller's instructions, what must never be summarized, the latest messages) is larger than the model
   * can take, and which part is largest.
   */
  private sayOverBudget(run: RequestRun): void {
    const over = run.view.measured.total > run.budget;
    if (over && !this.overBudgetSaid) {
      const { measured } = run.view;
      const instructions = instructionTokens(run.view);
      const part =
        instructions > run.budget / 2
          ? `the instructions alone take ${formatCount(instructions)} tokens`
          : 'what must never be summarized and the latest messages are all that is left';
      this.deps.cell.warn(
        `The request takes ${formatCount(measured.total)} tokens, more than the budget of ${formatCount(run.budget)}, after every ` +
          `compression: ${part}. The model may refuse it; a model with a larger window would take it.`,
      );
    }
    this.overBudgetSaid = over;
  }

  /** Tier 3: the checkpoint, a snapshot before it (unless one was taken already), the drift check after it. */
  private async checkpoint(run: RequestRun, turn: TurnOptions, mode: PlanMode, explicit: boolean, snapshotTaken = false): Promise<void> {
    const { tier3, snapshots, archive, clock } = this.deps;
    // The summary is asked of the conversation as the model last read it (plus what came since), before this run
    // rewrote any of it: that is what the prompt cache holds.
    const outcome = await tier3.checkpoint(run.view, run.budget, turn, mode, explicit, run.before);
    await run.step(outcome);
    const work = outcome.work;
    if (!work) return;
    const copy = work.conversation;
    const summaryReused = copy ? this.deps.sent.reusedOf(copy.messages, copy.messageTokens) : 0;
    // What the request sends before and after, like with like, earlier lines and all.
    const before = run.view.measured.total;
    if (!snapshotTaken) await run.step(snapshots.take('before-checkpoint', undefined, run.state, before));
    const applying = await tier3.applying(work, run.budget);
    await run.step({ patch: applying.patch });
    await run.step({
      patch: { promptCache: withSummaryRequest(run.state.promptCache ?? EMPTY_CACHE_TALLY, work.summaryRequestTokens, summaryReused) },
      events: tier3.appliedEvents(work, before, run.view.measured.total),
      warnings: applying.warnings,
    });
    await run.step(driftStep(run.state, run.view.messages, () => archive.read(), clock.now(), work.created.id));
    tier3.applied(work, turn, explicit);
  }

  /**
   * What results offloaded since the last request said beyond their previews, and what the last checkpoint's span
   * said that no checkpoint holds, join the earlier lines' pool. The pool is shown only as the context message is
   * rendered at a rebase.
   */
  private async addOffloadedLines(run: RequestRun): Promise<void> {
    const { counter, tier3 } = this.deps;
    const added = [...tier3.takeFillFacts(), ...this.deps.offloadedFacts()];
    if (added.length === 0) return;
    const o = this.deps.options();
    const free = Math.floor(o.thresholds.redAt * run.budget) - run.view.measured.total;
    // An offloaded file's lines only ever fill room a request has: no more of them than this one has.
    const lines = await addEarlierLines(
      run.state.earlierLines,
      added,
      earlierPoolTokensFor(run.budget),
      (t) => counter.countText(t),
      Math.max(0, free),
    );
    await run.step({ patch: { earlierLines: lines } });
  }

  /**
   * At a rebase the earlier lines get their room for the stretch until the next one (design §4.1): the best lines of
   * the summarized messages that no checkpoint holds, chosen once and sent unchanged, so they cost a cache read per
   * request rather than a write. Given before the checkpoint is planned, so that the checkpoint brings the context,
   * these lines included, to its target. None when `show` is false (CRITICAL).
   */
  private giveEarlierLinesRoom(run: RequestRun, show: boolean): Promise<void> {
    return this.setEarlierRoom(run, show ? earlierRoomAtRebase(run.budget) : 0);
  }

  /**
   * A rebase at CRITICAL gives the earlier lines no room; when the messages that made it CRITICAL have gone to files
   * since, in the same request, the lines get back what room the request has below RED, up to their share: the
   * context message is sent anew by this request anyway, so they cost no extra cache write, and without them they
   * would stay out until the next rebase, which a session that fits from here on never makes.
   */
  private async earlierLinesBackWithRoom(run: RequestRun): Promise<void> {
    const belowRed = () => run.level() !== 'RED' && run.level() !== 'CRITICAL';
    if (run.state.earlierRoom > 0 || !belowRed()) return;
    const free = Math.floor(this.deps.options().thresholds.redAt * run.budget) - run.view.measured.total;
    await this.setEarlierRoom(run, earlierRoomFor(Math.min(free, earlierRoomAtRebase(run.budget)), run.budget));
    if (!belowRed()) await this.giveEarlierLinesRoom(run, false);
  }

  /** The earlier lines' room, and the part of it what the tools printed may take; the context message is rendered anew. */
  private async setEarlierRoom(run: RequestRun, room: number): Promise<void> {
    const printedRoom = earlierPrintedRoomOf(room, run.budget);
    const s = run.state;
    if (room !== s.earlierRoom || printedRoom !== (s.earlierPrintedRoom ?? 0)) {
      await run.step({ patch: { earlierRoom: room, earlierPrintedRoom: printedRoom, frozenContext: undefined } });
    }
  }

  /** Takes the earlier lines out of a request over the budget when the request then fits. */
  private async fitWithoutEarlierLines(run: RequestRun): Promise<void> {
    const { total } = run.view.measured;
    if (total > run.budget && total - run.view.earlierTokens <= run.budget) await this.giveEarlierLinesRoom(run, false);
  }

  /** Attached context leaves a context still CRITICAL after the checkpoint, until it is below RED. */
  private offloadAttachments(run: RequestRun): Promise<StepResult> {
    const { archive, counter, paths, store, clock } = this.deps;
    if (!archive.complete) return Promise.resolve(NOTHING);
    const limit = Math.floor(this.deps.options().thresholds.redAt * run.budget) - 1;
    return offloadAttachmentsStep(run.state, run.view.measured.total, limit, { store, counter, paths, now: clock.now() });
  }

  /** A context still over the budget gives up its largest live blocks: the model would refuse the request. */
  private offloadToFit(run: RequestRun): Promise<StepResult> {
    const { archive, counter, paths, store, clock } = this.deps;
    if (!archive.complete) return Promise.resolve(NOTHING);
    const limit = Math.floor(this.deps.options().thresholds.redAt * run.budget) - 1;
    return offloadToFitStep(run.state, run.view.measured.total, run.budget, limit, { store, counter, paths, now: clock.now() });
  }

  private compressOldResults(state: SessionState): Promise<StepResult> {
    const { counter, tier3, paths, clock } = this.deps;
    return compressOldResultsStep(state, this.deps.options(), {
      counter,
      summarizer: tier3.deterministicSummarizer,
      paths,
      now: clock.now(),
    });
  }
}

/**
 * How much a step that rewrites what was sent must take the context down, as a share of the budget, to run between
 * rebases. It rewrites nearly the whole request, which the cache then reads anew once at a quarter more than the
 * base price instead of a tenth; the tokens it drops are saved at a tenth on each request until the next rebase, and
 * put that rebase off.
 * @default 0.25
 */
export const REWRITE_PAYS_SHARE = 0.25;

/**
 * Why the context went CRITICAL, naming where it stood before the steps and after them: a checkpoint may
 * well have brought it down, and the sentence must not read as a contradiction.
 */
function criticalReason(before: LevelPoint, after: LevelPoint): string {
  const sentence = `The context ${after.usage < before.usage ? '' : 'is '}${levelChange(before, after)}`;
  return after.level === 'CRITICAL' ? `${sentence}, still CRITICAL after a checkpoint.` : `${sentence}.`;
}

/** One preparation in progress: the events so far and the view of the state as it stands. */
class RequestRun {
  readonly events: CompressionEvent[] = [];

  private constructor(
    private readonly deps: PreparationDeps,
    readonly budget: number,
    readonly before: RequestView,
    public view: RequestView,
  ) {}

  static async start(deps: PreparationDeps, budget: number): Promise<RequestRun> {
    const view = await deps.renderer.render(deps.cell.state, budget);
    return new RequestRun(deps, budget, view, view);
  }

  get state(): SessionState {
    return this.deps.cell.state;
  }

  get usage(): number {
    return this.view.measured.total / this.budget;
  }

  /** A method, not a getter: every step may change it. */
  level(): Level {
    return levelOfView(this.view, this.budget, this.deps.options().thresholds);
  }

  /** A view's share of the budget and its level. */
  point(view: RequestView): LevelPoint {
    return { usage: view.measured.total / this.budget, level: levelOfView(view, this.budget, this.deps.options().thresholds) };
  }

  /** Applies what a step produced; the view is rendered again only when the state changed. */
  async step(produced: StepResult | Promise<StepResult>): Promise<void> {
    const result = await produced;
    if (result.events) this.events.push(...result.events);
    for (const warning of result.warnings ?? []) this.deps.cell.warn(warning);
    if (!result.patch || Object.keys(result.patch).length === 0) return;
    this.deps.cell.update(result.patch);
    this.view = await this.deps.renderer.render(this.deps.cell.state, this.budget);
  }

  result(critical?: CriticalOffer): Preparation {
    return { view: this.view, events: this.events, before: this.before, ...(critical ? { critical } : {}) };
  }
}

/** Tokens of the request's system messages: the instructions, which ctx sends as they are. */
function instructionTokens(view: RequestView): number {
  return view.messages.reduce((n, m, i) => n + (m.role === 'system' ? view.measured.messageTokens[i] : 0), 0);
}
