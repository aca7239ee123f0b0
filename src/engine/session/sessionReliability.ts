/** The reliability score (design §9) of a session's state, for the model in use. */
import { recallConfidence, sumRecallFigures } from '../model/recallFigures';
import type { SessionState } from '../model/sessionState';
import { reliabilityFor, type Reliability } from '../activity/reliability';

/** The score for `model`; the context confidence comes from the last drift check and the checkpoints' recall checks. */
export function sessionReliability(state: SessionState, model: string | undefined): Reliability {
  const recalls = state.checkpoints.flatMap((c) => (c.recall ? [c.recall] : []));
  return reliabilityFor({
    model,
    checkpointsMade: state.checkpointsMade,
    contextConfidence: state.contextConfidence,
    ...(recalls.length > 0 ? { recallConfidence: recallConfidence(sumRecallFigures(recalls)) } : {}),
  });
}
