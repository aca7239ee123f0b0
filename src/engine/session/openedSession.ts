/**
 * A stored session caught up as it opens, before anything else happens: the messages the archive
 * was missing are archived at once (a later rebuild from the archive must have them), the user is
 * told what was recovered, and the messages the state does not hold yet are taken in.
 */
import { errorMessage } from '../errors';
import type { LoadedSession } from './sessionLoad';
import type { SessionParts } from './sessionParts';

/** Catches the parts of a just-opened session up with what `loaded` found, and saves the state. */
export async function catchUpOpened(loaded: LoadedSession, parts: Pick<SessionParts, 'archive' | 'cell' | 'intake'>): Promise<void> {
  const { archive, cell, intake } = parts;
  const owed = new Set(loaded.unarchived.map((m) => m.id));
  const owedNow = loaded.unarchived.filter((m) => !loaded.unreconciled.some((u) => u.id === m.id));
  archive.owe(owedNow);
  if (loaded.archiveReplaced) cell.update({ archivedCount: 0 });
  // Archived at once, not with the next message: a later rebuild from the archive must have them.
  const outcome =
    owedNow.length === 0
      ? undefined
      : await archive.append([]).then((written) => {
          cell.update({ archivedCount: cell.state.archivedCount + written });
          return undefined;
        }, errorMessage);
  const owedWords = owedNow.length === 0 ? undefined : owedOutcome(owedNow.length, outcome);
  const notice = [loaded.notice, owedWords].filter((s) => s !== undefined).join(' ');
  if (notice) cell.warn(notice);
  const archived = loaded.unreconciled.filter((m) => !owed.has(m.id));
  const toArchive = loaded.unreconciled.filter((m) => owed.has(m.id));
  if (archived.length > 0) await intake.add(archived, true);
  if (toArchive.length > 0) await intake.add(toArchive);
  await cell.save();
}

/** What became of the messages the archive was missing, once archiving them was tried at open. */
function owedOutcome(count: number, failure: string | undefined): string {
  const them = count === 1 ? 'The message missing from the archive' : `The ${count} messages missing from the archive`;
  if (failure === undefined) return `${them} ${count === 1 ? 'is' : 'are'} archived now.`;
  return (
    `${them} could not be archived yet (${failure}); ${count === 1 ? 'it stays' : 'they stay'} in the context and ` +
    `${count === 1 ? 'is' : 'are'} archived before the next message.`
  );
}
