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
import { outputLineFacts } from './outputLines';
import { contentLineFacts } from './contentLines';
import { withoutFields } from '../text/harnessFields';
import { withoutHostFrame } from '../text/hostFrame';
import { classifyToolCall } from '../ledger/toolActivity';
import { delegatesWork } from '../text/nameWords';

/** Most facts read from one offloaded result. @default 40 — a summarized span's facts; the lines it printed come on top. */
export const MAX_OFFLOADED_FACTS = 40;
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
    ...(contentFile === undefined ? [] : contentLineFacts(quotable(original.content, call), contentFile, messageId)),
  ];
  // Free room only, like every line a tool printed: what the preview left out never brings a checkpoint sooner.
  return facts.filter((f) => f.kind !== 'request' && !holdsKey(shown, f.key)).map((f) => ({ ...f, printed: true }));
}

/** An offloaded result's content as its lines are quoted: without the fields a harness wrapped it in, but a file's own lines (only the host's frame goes). */
function quotable(content: string, call: ToolCallBlock | undefined): string {
  if (call === undefined) return withoutFields(content);
  return classifyToolCall(call).kind === 'file' ? withoutHostFrame(content) : withoutFields(content, delegatesWork(call.name));
}
