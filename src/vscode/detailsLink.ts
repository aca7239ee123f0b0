/**
 * Where the full account of what ctx did in a session is, one click away from an answer's summary. Every
 * "details" link is rendered here, so that pointing it somewhere else (a richer view of the session) is a
 * change to this file alone.
 */
import { COMMANDS } from './commandIds';

/** The command a details link runs. */
export const DETAILS_COMMAND = COMMANDS.openSessionLog;

/** A Markdown link that opens the session's log (needs a MarkdownString trusted for `DETAILS_COMMAND`). */
export function detailsLink(sessionId: string): string {
  const args = encodeURIComponent(JSON.stringify([sessionId]));
  return `[Details](command:${DETAILS_COMMAND}?${args} "Open the session log: one line for everything ctx did")`;
}
