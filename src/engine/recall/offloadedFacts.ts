/**
 * What an offloaded result said, for the earlier lines' pool (design §4.1): a result that goes to
 * a file on arrival leaves only its preview in the context, and a session whose large results all
 * went that way may never need a checkpoint, so nothing else would bring its error lines, outcomes
 * and the ends of its output back while the context has room. Read like any summarized step: its
 * diagnostics, outcomes and the messages its code raises, then the lines at both ends of what it
 * printed; what the preview already shows is left out. Last come the lines of the content itself,
 * in order and scored below everything else, under the name of the file they are in: a session
 * whose context stays small because its large results went to files shows more of them while it
 * has room, instead of ending at a third of its budget.
 */
import { message, type Message, type ToolCallBlock, type ToolResultBlock } from '../types';
import { extractFacts } from './extractFacts';
import type { Fact } from '../model/fact';
import { holdsKey, matchForm } from '../facts/factKey';
import { outputLineFacts, saysSomething } from './outputLines';
import { candidate } from './candidate';

/** Most facts read from one offloaded result. @default 40 — a summarized span's facts; the lines it printed come on top. */
export const MAX_OFFLOADED_FACTS = 40;
/**
 * Most characters of an offloaded result's content taken into the pool as lines.
 * @default 40_000 — about 10,000 tokens: free room in a large window, more than a small one has;
 * the pool's own cap (a share of the budget) still applies.
 */
export const MAX_OFFLOADED_CONTENT_CHARS = 40_000;
/** Score of a line of an offloaded result's content: below every fact and every output line, so it is shown last and leaves the pool first. */
export const OFFLOADED_CONTENT_SCORE = 0.05;

/**
 * The facts of `original` (the result before it was offloaded) that `preview` (what the context
 * keeps of it) does not show, with its `call` when known; then, when `contentFile` names the file
 * it went to (text, not binary), the lines of its content the preview does not show.
 */
export function offloadedResultFacts(
  original: ToolResultBlock,
  preview: string,
  call: ToolCallBlock | undefined,
  messageId: string,
  contentFile?: string,
): Fact[] {
  const span: Message[] = [...(call ? [message(messageId, 'assistant', [call])] : []), message(messageId, 'tool', [original])];
  const shown = matchForm(preview);
  const facts = [
    ...extractFacts(span, { maxFacts: MAX_OFFLOADED_FACTS }),
    ...outputLineFacts(span),
    ...(contentFile === undefined ? [] : contentLines(original.content, contentFile, messageId)),
  ];
  // Free room only, like every line a tool printed: what the preview left out never brings a checkpoint sooner.
  return facts.filter((f) => f.kind !== 'request' && !holdsKey(shown, f.key)).map((f) => ({ ...f, printed: true }));
}

/** The lines of `content` that say something, as lines of `file`, up to {@link MAX_OFFLOADED_CONTENT_CHARS}. */
function contentLines(content: string, file: string, messageId: string): Fact[] {
  const lines: Fact[] = [];
  let taken = 0;
  let at = 0;
  while (at < content.length && taken < MAX_OFFLOADED_CONTENT_CHARS) {
    const next = content.indexOf('\n', at);
    const end = next < 0 ? content.length : next;
    const text = content.slice(at, end);
    // Counted with the outputs: a line of content is what a tool printed, not a fact read from it.
    const line = saysSomething(text) ? candidate('outcome', text, { messageId, seq: lines.length }, OFFLOADED_CONTENT_SCORE) : undefined;
    if (line) {
      const { seq: _seq, ...fact } = line;
      lines.push({ ...fact, from: file });
      taken += text.length;
    }
    at = end + 1;
  }
  return lines;
}
