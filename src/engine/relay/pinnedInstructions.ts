/**
 * The caller's instructions: the system messages a request starts with. They are the caller's to
 * manage, so they stay out of the session (no tier may summarize them away) and go first in every
 * forwarded request, exactly as sent; they also do not identify a conversation, which is what
 * follows them.
 */
import type { IncomingMessage } from '../conversation/incomingMessage';

export interface SplitRequest<Raw> {
  readonly instructions: readonly IncomingMessage<Raw>[];
  readonly conversation: readonly IncomingMessage<Raw>[];
}

export function splitInstructions<Raw>(messages: readonly IncomingMessage<Raw>[]): SplitRequest<Raw> {
  let start = 0;
  while (start < messages.length && messages[start].role === 'system') start++;
  return { instructions: messages.slice(0, start), conversation: messages.slice(start) };
}
