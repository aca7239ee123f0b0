/**
 * A checkpoint's summary asked as the conversation's next request. The model then reads the conversation as it was
 * last sent, which a provider's prompt cache holds (read at a tenth of the price), and one question at its end; the
 * span rendered anew as a prompt of its own would be read in full at every checkpoint. Claude Code compacts the same
 * way. Only the conversation's own model can be asked so (the same model, instructions and tools make the same
 * prefix); another summarizer gets the span as its own prompt (`summaryPrompt.ts`).
 */
import type { Cancellation } from '../cancellation';
import { oneLine, shortenEnd } from '../text/shorten';
import type { Block, Message } from '../types';
import type { ConversationCopy, Summarizer, SummaryBrief } from './summarizer';
import { historyInstructions } from './summaryPrompt';

/** Characters of a message's opening words quoted to point at it. @default 80 */
export const QUOTED_OPENING_CHARS = 80;

/** The id of the question's message, which no conversation message has. */
export const SUMMARY_QUESTION_ID = 'ctx-summary-question';

/**
 * The copy of a conversation about to be sent (`tokens`: each message's) with the messages `ids` placed in it;
 * undefined unless they are all there, in order, one after the other.
 */
export function conversationCopyOf(
  messages: readonly Message[],
  tokens: readonly number[],
  ids: readonly string[],
): ConversationCopy | undefined {
  if (ids.length === 0) return undefined;
  const first = messages.findIndex((m) => m.id === ids[0]);
  if (first < 0 || first + ids.length > messages.length) return undefined;
  for (let i = 1; i < ids.length; i++) if (messages[first + i].id !== ids[i]) return undefined;
  return { messages, first, last: first + ids.length - 1, messageTokens: tokens };
}

/** Tokens of the whole conversation copy, as its requests count them. */
export function conversationTokens(copy: ConversationCopy): number {
  let total = 0;
  for (let i = 0; i < copy.messages.length; i++) total += copy.messageTokens[i] ?? 0;
  return total;
}

/** The question that follows the conversation: which of its messages to summarize, then what every summary is asked. */
export function conversationQuestion(brief: SummaryBrief, copy: ConversationCopy): string {
  const count = copy.last - copy.first + 1;
  const from = `«${openingOf(copy.messages[copy.first])}»`;
  const which =
    count === 1
      ? `Summarize the message of the conversation above that begins ${from}.`
      : `Summarize the ${count} messages of the conversation above from the one that begins ${from} ` +
        `through the one that begins «${openingOf(copy.messages[copy.last])}».`;
  return historyInstructions(brief, [
    'ctx, which keeps this conversation inside the context window, interrupts the work for a checkpoint summary. ' +
      'Do not go on with the task and call no tool: answer with the summary alone.',
    which,
    "The summary replaces those messages in the assistant's context while the messages after them stay, so it must keep " +
      'everything needed to continue the work toward the goals below.',
  ]).join('\n');
}

/** The question as the message that ends the summary request. */
export function questionMessage(question: string): Message {
  return { id: SUMMARY_QUESTION_ID, role: 'user', blocks: [{ type: 'text', text: question }] };
}

/**
 * `summarizer` (the conversation's own model) with the summary asked as the conversation's next request: `ask` sends
 * the messages as the conversation's requests go, with the same instructions and tools, and returns the answer's text.
 */
export function askingInConversation(
  summarizer: Summarizer,
  ask: (messages: readonly Message[], cancellation: Cancellation) => Promise<string>,
): Summarizer {
  return {
    name: summarizer.name,
    maxInputTokens: summarizer.maxInputTokens,
    summarize: (request, cancellation) => summarizer.summarize(request, cancellation),
    summarizeConversation: (copy, question, cancellation) => ask([...copy.messages, questionMessage(question)], cancellation),
  };
}

/** A message's opening words: its text, or else what its first tool call or result says. */
function openingOf(message: Message | undefined): string {
  const blocks = message?.blocks ?? [];
  const said = blocks.map(blockText).find((t) => t.trim().length > 0) ?? '';
  return shortenEnd(oneLine(said), QUOTED_OPENING_CHARS);
}

function blockText(block: Block): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'toolResult') return block.content;
  if (block.type === 'toolCall') return `${block.name} ${JSON.stringify(block.input)}`;
  return '';
}
