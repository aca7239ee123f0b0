/**
 * What happens to the context before a request, in order, in one place. Every step reads the
 * state as it stands and returns what it produced; the preparation applies it to the state cell
 * and renders the request view again only when a step changed something.
 *
 *   1. Tier 2: old write/edit inputs whose content is on disk give up their copy (from 50%).
 *   2. A checkpoint tool's call moves the watermark; tool blocks before the watermark are dropped.
 *   3. A model summary that arrived in the background replaces its deterministic stand-in.
 *   4. From 80%: old large results are compressed in place, and a snapshot is taken once per rise.
 *   5. Tier 3 at the trigger (RED): a checkpoint, a snapshot before it, the drift check after it;
 *      from ORANGE on, the next checkpoint is prepared in the background.
 *   6. The best earlier lines no checkpoint holds fill their floor (10%) and the free room below RED
 *      less a margin; before the next request is measured they shrink back to the floor, so the
 *      free room they took never brings a checkpoint sooner.
 *   7. Still CRITICAL: attached context (blocks nobody in the session wrote) goes to files until below RED;
 *      still over the budget: the live tool results, then the user's longest texts, go to files until below RED.
 *   8. CRITICAL: a snapshot and the offer of a fresh session.
 *   9. The protected part over its share of the ledger: said once when it goes over, never a level of its own.
 *
 * "Compress context" runs the same steps at once, after one snapshot of the context as it was, so
 * the whole compression can be undone.
 *
 * Nothing leaves the context while the archive misses a message (a full disk): steps 1 and 4–5
 * wait until it is whole again.
 */
import type { CriticalOffer } from '../model/preparedContext';
import type { Fact } from '../model/fact';
import {
  addEarlierLines,
  EARLIER_LINES_BELOW_RED,
  earlierFloorFor,
  earlierPoolTokensFor,
  earlierRoomFor,
} from '../checkpoints/earlierLines';
import type { PlanMode } from '../checkpoints/checkpointTrigger';
import type { Tier3 } from '../checkpoints/tier3';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { CompressionEvent } from '../model/compressionEvent';
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
  /** The options as they apply to the latest budget. */
  options(): EngineOptions;
}

export class RequestPreparation {
  /** Whether the last request's protected part was over its share: said when it goes over, not on every request. */
  private protectedOverShare = false;

  constructor(private readonly deps: PreparationDeps) {}

  /** The steps before a request, in the order of this file's header. */
  async beforeRequest(budget: number, turn: TurnOptions): Promise<Preparation> {
    const { archive, tier3, logger, clock, counter, files } = this.deps;
    const o = this.deps.options();
    const run = await RequestRun.start(this.deps, budget);

    if (archive.complete && run.usage >= o.truncateInputsAt) {
      await run.step(truncateInputsStep(run.state, o.recentMessagesKept, { files, counter, now: clock.now() }));
    }
    await run.step(resolvePendingCheckpoint(run.state, logger));
    await run.step(watermarkStep(run.state, counter, logger, clock.now()));
    await run.step(tier3.takeUpgrade());
    if (!archive.complete) return run.result();

    if (run.usage >= o.compressResultsAt) await run.step(this.compressOldResults(run.state));
    if (run.usage >= o.autoSnapshotAt && run.state.autoSnapshotArmed) {
      await run.step({ patch: { autoSnapshotArmed: false } });
      await run.step(this.deps.snapshots.take('auto', undefined, run.state, run.view.measured.total));
    }

    const criticalBefore = run.level() === 'CRITICAL';
    // After an undo, what it brought back stays until the context is CRITICAL or the user compresses.
    const held = run.state.checkpointsHeld && !criticalBefore;
    if (!held && tier3.isDue(run.view, run.level(), budget)) {
      await this.checkpoint(run, turn, criticalBefore ? 'all-but-recent' : 'target', false);
    } else if (run.level() !== 'GREEN' && run.usage >= o.thresholds.orangeAt) {
      tier3.prepareInBackground(run.view, budget, turn);
    }

    await this.showEarlierLines(run);
    if (run.level() === 'CRITICAL') await run.step(this.offloadAttachments(run));
    await run.step(this.offloadToFit(run));
    this.sayProtectedOverShare(run.view.ledgerOverflow, o.ledgerShare);

    if (!criticalBefore && run.level() !== 'CRITICAL') return run.result();
    const snapshot = await this.deps.snapshots.take('critical', undefined, run.state, run.view.measured.total);
    await run.step(snapshot);
    const reason = criticalReason(run.point(run.before), run.point(run.view));
    await run.step({
      events: [
        {
          at: clock.now(),
          kind: 'critical',
          savedTokens: 0,
          detail: `${reason} A checkpoint and a snapshot were taken; continue in a fresh session from the checkpoint.`,
          name: 'rollover-complete',
        },
      ],
    });
    return run.result({ reason, ...(snapshot.summary ? { snapshot: snapshot.summary.name } : {}) });
  }

  /**
   * "Compress context": every verified input outside the latest messages is truncated, the
   * watermark moves to the last tool call before them, and everything but the latest messages
   * becomes a checkpoint, written by the model when one is given. Cancelling leaves the context as
   * it was.
   */
  async compressNow(budget: number, turn: TurnOptions): Promise<Preparation> {
    const { cell, archive, tier3, logger, clock, counter, files } = this.deps;
    const o = this.deps.options();
    const run = await RequestRun.start(this.deps, budget);
    if (!archive.complete) {
      cell.warn('Compression was skipped: the archive could not be written, and nothing is removed from the context until it is.');
      return run.result();
    }
    // One snapshot before everything the compression does, so undoing it puts back the context as it was.
    await run.step(this.deps.snapshots.take('before-checkpoint', undefined, run.state, run.view.measured.total));
    await run.step(truncateInputsStep(run.state, o.recentMessagesKept, { files, counter, now: clock.now() }));
    await run.step(moveWatermarkBeforeRecent(run.state, o.recentMessagesKept, logger));
    await run.step(watermarkStep(run.state, counter, logger, clock.now()));
    await run.step(tier3.takeUpgrade());
    await run.step(this.compressOldResults(run.state));
    await this.checkpoint(run, turn, 'all-but-recent', true, true);
    await this.showEarlierLines(run);
    return run.result();
  }

  /** Summarizes every message into a checkpoint, the step before starting a fresh session from it. */
  async checkpointEverything(budget: number, turn: TurnOptions): Promise<Preparation> {
    const run = await RequestRun.start(this.deps, budget);
    if (run.state.active.length > 0 && this.deps.archive.complete) await this.checkpoint(run, turn, 'everything', true);
    return run.result();
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

  /** Tier 3: the checkpoint, a snapshot before it (unless one was taken already), the drift check after it. */
  private async checkpoint(run: RequestRun, turn: TurnOptions, mode: PlanMode, explicit: boolean, snapshotTaken = false): Promise<void> {
    const { tier3, snapshots, archive, clock } = this.deps;
    const outcome = await tier3.checkpoint(run.view, run.budget, turn, mode, explicit);
    await run.step(outcome);
    const work = outcome.work;
    if (!work) return;
    const before = run.view.measured.total;
    if (!snapshotTaken) await run.step(snapshots.take('before-checkpoint', undefined, run.state, before));
    const applying = await tier3.applying(work);
    await run.step({ patch: applying.patch });
    await run.step({ events: tier3.appliedEvents(work, before, run.view.measured.total), warnings: applying.warnings });
    await run.step(driftStep(run.state, run.view.messages, () => archive.read(), clock.now(), work.created.id));
    tier3.applied(work, turn, explicit);
  }

  /**
   * Free room below the earlier lines' level shows the best lines of the summarized messages that
   * no checkpoint holds (design §4.1); a checkpoint just made first adds its span's lines to the pool.
   */
  private async showEarlierLines(run: RequestRun): Promise<void> {
    const { counter, tier3 } = this.deps;
    const level = this.deps.options().thresholds.redAt - EARLIER_LINES_BELOW_RED;
    const freeNow = Math.floor(level * run.budget) - (run.view.measured.total - run.view.earlierTokens);
    const added = [...tier3.takeFillFacts(), ...this.deps.offloadedFacts()];
    if (added.length > 0) {
      const maxTokens = earlierPoolTokensFor(run.budget);
      // An offloaded file's lines only ever fill free room: no more of them than this request has.
      const lines = await addEarlierLines(run.state.earlierLines, added, maxTokens, (t) => counter.countText(t), Math.max(0, freeNow));
      await run.step({ patch: { earlierLines: lines } });
    }
    if (run.state.earlierLines.length === 0) return;
    if (run.level() === 'CRITICAL') {
      await run.step({ patch: { earlierRoom: 0 } });
      return;
    }
    const free = Math.floor(level * run.budget) - (run.view.measured.total - run.view.earlierTokens);
    const floor = earlierFloorFor(run.budget);
    const room = Math.max(floor, earlierRoomFor(free, run.budget));
    // What a tool printed fills free context only: all of a room above the floor, or the part of the floor that is free.
    const printedRoom = free >= floor ? room : earlierRoomFor(Math.max(0, free), run.budget);
    const s = run.state;
    if (room !== s.earlierRoom || printedRoom !== (s.earlierPrintedRoom ?? 0)) {
      await run.step({ patch: { earlierRoom: room, earlierPrintedRoom: printedRoom } });
    }
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
 * The patch that puts the earlier lines back to their floor (empty when they stand there): the free
 * room they took was sized for one request, so once new messages join, and before any step of the
 * next request measures the context, they stand at the room they always have.
 */
export function earlierFloorPatch(state: SessionState, budget: number): Partial<SessionState> {
  const floor = state.earlierLines.length > 0 ? earlierFloorFor(budget) : 0;
  return state.earlierRoom !== floor || (state.earlierPrintedRoom ?? 0) > 0 ? { earlierRoom: floor, earlierPrintedRoom: 0 } : {};
}

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
    // The earlier lines give way first: every step measures the context with only their floor.
    const toFloor = earlierFloorPatch(deps.cell.state, budget);
    if (Object.keys(toFloor).length > 0) deps.cell.update(toFloor);
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
