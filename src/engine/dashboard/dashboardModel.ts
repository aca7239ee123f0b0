/**
 * Everything the dashboard shows of a session, built in one pass from the engine's own figures:
 * the composition of the budget, the items largest first, the timeline, the checkpoints, and
 * whether a compression can be undone.
 */
import { checkpointCards, retiredCards, type CheckpointCard, type RetiredCard } from './checkpointCards';
import { composition, type Composition } from './composition';
import { contextBreakdown } from './contextBreakdown';
import { contextItems, type ItemList } from './contextItems';
import type { DashboardInput } from './dashboardInput';
import { timelineModel, type TimelineModel } from './timelineModel';
import { describePromptCache } from '../activity/promptCacheWording';

/** The compression an undo would take back: the snapshot taken before it. */
export interface UndoTarget {
  readonly snapshotName: string;
  readonly at: number;
}

export interface DashboardModel {
  readonly sessionId: string;
  readonly title: string;
  /** Live messages and messages archived in all. */
  readonly messages: number;
  readonly archived: number;
  readonly composition: Composition;
  readonly items: ItemList;
  readonly timeline: TimelineModel;
  readonly checkpoints: readonly CheckpointCard[];
  readonly retired: readonly RetiredCard[];
  readonly undo?: UndoTarget;
  readonly warnings: readonly string[];
  /** What the session's requests met in a provider's prompt cache, in words; absent before the first request. */
  readonly promptCache?: string;
}

export interface DashboardExtras {
  /** How many items to list, largest first. */
  readonly itemLimit: number;
  readonly undo?: UndoTarget;
  readonly warnings: readonly string[];
}

export function dashboardModel(input: DashboardInput, extras: DashboardExtras): DashboardModel {
  const { state } = input;
  const breakdown = contextBreakdown(input);
  const promptCache = describePromptCache(state.promptCache);
  return {
    sessionId: state.id,
    title: state.title,
    messages: state.active.length,
    archived: state.archivedCount,
    composition: composition(input, breakdown),
    items: contextItems(input, extras.itemLimit, breakdown),
    timeline: timelineModel(state),
    checkpoints: checkpointCards(state, input.options.checkpointTokens),
    retired: retiredCards(state),
    ...(extras.undo ? { undo: extras.undo } : {}),
    warnings: extras.warnings,
    ...(promptCache ? { promptCache } : {}),
  };
}
