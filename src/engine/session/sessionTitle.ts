/** How a session is named in lists: its first user request, on one line, in the user's own words. */
import { oneLine, shortenEnd } from '../text/shorten';
import { authoredText, messageText, type Message } from '../types';

/** Longest title shown; longer requests are cut with an ellipsis. */
const TITLE_MAX_CHARS = 80;

/**
 * The first text a user wrote, on one line, shortened: attached files, environment blocks and
 * other injected context never name a session. A conversation whose user messages hold only
 * injected text is named by the first of them; empty when there is no user message.
 */
export function sessionTitle(messages: readonly Message[]): string {
  let first: Message | undefined;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    first ??= m;
    const own = authoredText(m).trim();
    if (own) return shortenEnd(oneLine(own), TITLE_MAX_CHARS);
  }
  return first ? shortenEnd(oneLine(messageText(first)), TITLE_MAX_CHARS) : '';
}
