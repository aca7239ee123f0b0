/** Whether a session's context lacks something its conversation had, so the model may need ctx's recovery tools. */
import type { SessionState } from '../model/sessionState';

export function compressedAway(state: SessionState): boolean {
  return (
    state.offloads.length > 0 ||
    state.checkpoints.length > 0 ||
    state.truncations.length > 0 ||
    state.watermark !== undefined ||
    state.checkpointsMade > 0 ||
    state.history.some((e) => e.savedTokens > 0)
  );
}
