/**
 * The drift check as a step after every checkpoint: what must survive (intent, active goals,
 * locked decisions, the next step, the artifacts) is in the new context, or is put back from the
 * ledger; an artifact out of the context still counts when the archive has it.
 */
import type { StepResult } from '../model/stepResult';
import type { ArchivedMessages } from '../model/archivedMessages';
import type { SessionState } from '../model/sessionState';
import { shortenEnd } from '../text/shorten';
import { messageContentText, messageText, type Message } from '../types';
import { checkDrift, renderReinsertion } from './driftCheck';

/** Characters of an item's text shown in the event. */
const ITEM_PREVIEW_CHARS = 60;

export async function driftStep(
  state: SessionState,
  contextMessages: readonly Message[],
  archive: () => Promise<ArchivedMessages>,
  now: number,
  /** The checkpoint just applied, named in the event. */
  checkpointId?: string,
): Promise<StepResult> {
  const contextText = contextMessages.map(messageText).join('\n');
  let report = checkDrift({ contextText, ledger: state.ledger, isFindable: () => false });
  if (report.missing.some((m) => m.kind === 'artifact')) {
    const archived = (await archive()).messages;
    report = checkDrift({
      contextText,
      ledger: state.ledger,
      isFindable: (path) => archived.some((m) => messageContentText(m).includes(path)),
    });
  }
  if (report.missing.length === 0) return { patch: { contextConfidence: report.confidence } };
  const what = report.missing.map((m) => `${m.kind} "${shortenEnd(m.text, ITEM_PREVIEW_CHARS)}"`).join(', ');
  return {
    patch: { contextConfidence: report.confidence, putBack: renderReinsertion(report.missing) },
    events: [
      {
        at: now,
        kind: 'drift',
        savedTokens: 0,
        detail: `Drift check: ${report.missing.length} item(s) missing after the checkpoint were put back from the ledger: ${what}`,
        name: 'drift-detected',
        ...(checkpointId ? { checkpointId } : {}),
      },
    ],
  };
}
