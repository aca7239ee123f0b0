/**
 * Applying a checkpoint (design §4.3): its messages leave the context, the checkpoints age into the
 * list it brings, the recall check's facts join the ledger, and user messages too large to keep
 * verbatim in the ledger go to files. A patch, applied by the request preparation in its order.
 */
import { offloadHugeUserMessages } from '../ledger/userMessageOffload';
import type { Store } from '../ports';
import type { StepResult } from '../model/stepResult';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';
import { withRecalledFacts } from './checkpointRecall';
import type { CheckpointWork } from './checkpointing';

/** The patch that applies `work` to `state`. */
export async function applyingCheckpoint(
  work: CheckpointWork,
  state: SessionState,
  deps: { readonly store: Store; readonly paths: SessionPaths; readonly now: number; readonly budgetTokens?: number },
): Promise<StepResult> {
  const taken = new Set(work.plan.messageIds);
  const active = state.active.filter((m) => !taken.has(m.id));
  const offloadedUsers = await offloadHugeUserMessages(state.ledger, {
    liveMessageIds: new Set(active.map((m) => m.id)),
    store: deps.store,
    folder: deps.paths.offloaded,
    now: deps.now,
    ...(deps.budgetTokens !== undefined ? { budgetTokens: deps.budgetTokens } : {}),
  });
  const reasons = new Set(work.fallbackReasons);
  return {
    patch: {
      active,
      checkpoints: work.checkpoints,
      checkpointsMade: state.checkpointsMade + 1,
      putBack: '',
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
