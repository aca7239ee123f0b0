/** How a session is named in lists: its first user request, on one line. */
import { oneLine, shortenEnd } from '../text/shorten';
import { messageText, type Message } from '../types';

/** Longest title shown; longer requests are cut with an ellipsis. */
const TITLE_MAX_CHARS = 80;

/** The first user message's text on one line, shortened; empty when there is none. */
export function sessionTitle(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === 'user');
  return first ? shortenEnd(oneLine(messageText(first)), TITLE_MAX_CHARS) : '';
}
