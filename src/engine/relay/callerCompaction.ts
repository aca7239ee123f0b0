/**
 * A caller's own compaction request: Copilot's agent, when its count of the history nears the window, asks the
 * selected model to summarize the conversation, then resends a history that begins with that summary. Such a
 * request is housekeeping, not a turn of the conversation: its prompt is not the user's, it must not start a session
 * of its own, and the conversation's session must not keep it (the caller never sends it again). It comes in two
 * shapes: the conversation itself with the prompt after it (tools still offered), or one text holding the history
 * the caller rendered, with the prompt after it.
 */
import type { IncomingMessage } from '../conversation/incomingMessage';
import { isAnchor } from '../conversation/userRequest';

/**
 * How the prompts of callers' compaction requests open (Copilot Chat's "simple" and "full" summarization prompts),
 * in the user text of the request's last message.
 */
const COMPACTION_PROMPT_OPENINGS: readonly string[] = [
  'The conversation has grown too large for the context window and must be compacted now',
  'Summarize the conversation history so far',
];

/** What a caller's compaction request is made of. */
export interface CallerCompaction<Raw> {
  /** The messages before the prompt. */
  readonly history: readonly IncomingMessage<Raw>[];
  /** The caller's prompt, the request's last message. */
  readonly prompt: IncomingMessage<Raw>;
  /**
   * Whether the history is the conversation as the caller keeps it, with its tool exchanges: its session holds it
   * and prepares it within the window. Otherwise it is text the caller rendered (or a conversation without tools),
   * which the caller measured itself: it goes to the model as it came.
   */
  readonly conversational: boolean;
}

/** The request as a caller's compaction request, or undefined when its last message is not such a prompt. */
export function callerCompaction<Raw>(conversation: readonly IncomingMessage<Raw>[]): CallerCompaction<Raw> | undefined {
  const prompt = conversation[conversation.length - 1];
  if (prompt?.role !== 'user') return undefined;
  const text = prompt.blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('')
    .trimStart();
  if (!COMPACTION_PROMPT_OPENINGS.some((opening) => text.startsWith(opening))) return undefined;
  const history = conversation.slice(0, -1);
  return { history, prompt, conversational: history.some(isAnchor) };
}
