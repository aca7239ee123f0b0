/**
 * Which conversation of a transcript to replay: a file can hold several (OpenHands output has one
 * task per line, a Claude Code session its subagents). `--session` takes a 1-based number or an id.
 */
import type { ImportedSession } from './import/importTypes';
import { InputError } from './cliErrors';

/** Ids listed in an error before the rest are only counted. */
const IDS_LISTED = 10;

/** The chosen session and its 1-based number. */
export interface ChosenSession {
  readonly session: ImportedSession;
  readonly number: number;
}

/**
 * The session `choice` names: a whole number counts from 1, anything else is an id. Without a
 * choice, the first. Throws an `InputError` naming the sessions there are when it fits none.
 */
export function chooseSession(sessions: readonly ImportedSession[], choice: string | undefined, file: string): ChosenSession {
  if (sessions.length === 0) throw new InputError(`${file} holds no session to replay.`);
  if (choice === undefined) return { session: sessions[0], number: 1 };
  const trimmed = choice.trim();
  const byId = sessions.findIndex((s) => s.id === trimmed);
  if (byId !== -1) return { session: sessions[byId], number: byId + 1 };
  if (/^\d+$/.test(trimmed)) {
    const number = Number(trimmed);
    if (number >= 1 && number <= sessions.length) return { session: sessions[number - 1], number };
  }
  throw new InputError(`${file} has no session "${choice}"; ${describeSessions(sessions)}.`);
}

/** "it holds 3 sessions: 1 a, 2 b, 3 c" (the first ten ids, then how many more). */
export function describeSessions(sessions: readonly ImportedSession[]): string {
  const listed = sessions.slice(0, IDS_LISTED).map((s, i) => `${i + 1} ${s.id}`);
  const more = sessions.length > IDS_LISTED ? `, and ${sessions.length - IDS_LISTED} more` : '';
  return `it holds ${sessions.length} session${sessions.length === 1 ? '' : 's'}: ${listed.join(', ')}${more}; --session takes a number from 1 or an id`;
}
