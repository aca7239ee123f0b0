/**
 * The drift check as a step after every checkpoint: what must survive (intent, active goals,
 * locked decisions, the next step, the artifacts) is in the new context, or is put back from the
 * ledger; an artifact out of the context still counts when the archive has it.
 */
import type { StepResult } from '../model/stepResult';
import { forEachArchived, type ArchivedMessages } from '../model/archivedMessages';
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
  const artifacts = report.missing.filter((m) => m.kind === 'artifact').map((m) => m.text.trim());
  if (artifacts.length > 0) {
    const found = await foundInArchive(await archive(), artifacts);
    report = checkDrift({ contextText, ledger: state.ledger, isFindable: (path) => found.has(path) });
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

/** The paths some archived message's content names, read through the archive once and no further than needed. */
async function foundInArchive(archived: ArchivedMessages, paths: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const wanted = new Set(paths);
  await forEachArchived(archived, 0, (m) => {
    const text = messageContentText(m);
    for (const path of wanted) {
      if (!text.includes(path)) continue;
      found.add(path);
      wanted.delete(path);
    }
    return wanted.size === 0;
  });
  return found;
}
