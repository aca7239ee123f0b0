/**
 * When Tier 3 acts and what it takes (design §4.3): a checkpoint is due at RED (or at a share of
 * the available budget when so configured), and its plan takes the oldest messages until the
 * context would be back at the target, the latest messages always kept intact.
 */
import type { EngineOptions } from '../options';
import type { RequestView } from '../model/requestView';
import type { SessionState } from '../model/sessionState';
import { targetTokensFor } from './aging';
import type { Checkpoint } from '../model/checkpoint';
import { planCheckpoint, type CheckpointPlan } from './checkpointPlan';
import { earlierRoomAtRebase } from './earlierLines';

/**
 * How Tier 3 chooses its range: reach the target usage (at the trigger), everything but the kept
 * messages (an explicit compression, or CRITICAL), or everything (before a fresh session).
 */
export type PlanMode = 'target' | 'all-but-recent' | 'everything';

/** Whether a checkpoint is due: at RED (or CRITICAL), or at the share of the available budget when so configured. */
export function checkpointDue(view: RequestView, level: string, budget: number, o: EngineOptions): boolean {
  if (o.checkpointTrigger === 'available') {
    const available = Math.max(1, budget - view.contextTokens);
    return view.measured.total - view.contextTokens >= available * o.availableTriggerShare;
  }
  return level === 'RED' || level === 'CRITICAL';
}

/** The tokens at which Tier 3 fires, for planning ahead. */
export function triggerTokens(view: RequestView, budget: number, o: EngineOptions): number {
  return o.checkpointTrigger === 'available'
    ? view.contextTokens + (budget - view.contextTokens) * o.availableTriggerShare
    : budget * o.thresholds.redAt;
}

/** The range a checkpoint takes now, planned for `expectedGrowth` more tokens; undefined when nothing can go. */
export function planFor(
  view: RequestView,
  budget: number,
  mode: PlanMode,
  o: EngineOptions,
  state: SessionState,
  expectedGrowth = 0,
): CheckpointPlan | undefined {
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
    // The view shows the live messages last, after the context message when there is one.
    messageTokens: view.measured.messageTokens.slice(offset),
    // The earlier lines count at the whole room a rebase gives them: the checkpoint's span adds to their pool.
    fixedTokens: Math.max(
      0,
      view.measured.total -
        liveTokens(view, offset) -
        currentCheckpoints +
        agedCheckpoints -
        view.earlierTokens +
        earlierRoomAtRebase(budget),
    ),
    checkpointTokens: o.checkpointTokens,
    budget,
    targetUsage: mode === 'target' ? o.targetUsageAfterCheckpoint : 0,
    expectedGrowth,
    keepMessages: everything ? 0 : o.recentMessagesKept,
    keepTokens: everything ? 0 : Math.min(o.recentTokensKept, budget * o.targetUsageAfterCheckpoint * 0.5),
  });
}

function liveTokens(view: RequestView, offset: number): number {
  let total = 0;
  const tokens = view.measured.messageTokens;
  for (let i = offset; i < tokens.length; i++) total += tokens[i];
  return total;
}
