/**
 * The fields a harness wraps a tool's result in rather than what the tool said, told by their shape: an element on one
 * line (`<status>completed</status>`, `<retrieval_status>success</retrieval_status>`), or an element whose lines are all
 * a key and a value (`<usage>total_tokens: 49100` … `duration_ms: 57709</usage>`), with the id the harness notes on the
 * line before it (`agentId: a31be88 (…)`), or, in a delegated agent's report, on its last line or in its first lines;
 * and a host's frame (see `hostFrame.ts`): its label above the result (`[read_file for 'a.ts'] Result:`) and its record
 * of a shell run (`Command: …`, `Directory: …`, `Output: …`), of which only what the program printed is the tool's.
 */
import { withoutHostFrame } from './hostFrame';

/** An element on one line: the harness's field, not something the tool printed. */
const FIELD_ELEMENT = /^[ \t]*<([A-Za-z][\w.-]*)(?:\s[^<>]*)?>[^<>\n]{0,200}<\/\1>[ \t]*$/gm;
/** An element over several lines, every line of it a key and a value. */
const FIELD_BLOCK = /^[ \t]*<([A-Za-z][\w.-]*)>[ \t]*(?:[\w.-]+:[^<\n]*\n[ \t]*)*[\w.-]+:[^<\n]*<\/\1>[ \t]*$/gm;

/**
 * A key and an id, the record of the agent that wrote the result (`agentId: a31be88`). An id holds a letter and a digit,
 * so a sentence or a verdict (`Status: done`, `Total: 42`) is no id.
 */
const AGENT_ID = String.raw`[ \t]*[A-Za-z][\w.-]*:[ \t]+(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z])[\w.-]+`;
/** The harness's note after the id (`(use SendMessage with to: 'a31be88' to continue this agent)`). */
const NOTE = String.raw`[ \t]+\([^()\n]*\)`;
/** The record on the line right before such a field, with or without its note (above `<usage>…`). */
const ID_BEFORE_FIELD = new RegExp(String.raw`^${AGENT_ID}(?:${NOTE})?[ \t]*\n(?=[ \t]*<([A-Za-z][\w.-]*)>[^<]*<\/\1>)`, 'gm');
/** The record with its note on a line of its own: the agent a call delegated work to. */
const AGENT_RECORD = new RegExp(String.raw`^${AGENT_ID}${NOTE}[ \t]*$`);
/** Lines of a delegated call's result within which its agent's record, with lines after it, says the agent only started. @default 2 */
const NOTICE_LINES = 2;

/**
 * `content` without the harness's field elements (see the header). For the result of a call that delegated work to
 * another agent (`delegatedReport`), also without the agent's record on its last line (only there: a command's output
 * may end in a line of that form that is what it printed, `Version: v2.1.0 (latest)`); and a result whose record
 * stands in its first lines with more lines after it, before any report, is the harness's notice that the agent started
 * in the background, not what it found: nothing of it is left. The same string when it has none of these.
 */
export function withoutFields(content: string, delegatedReport = false): string {
  const unwrapped = withoutHostFrame(content);
  const fieldless = unwrapped.includes('</')
    ? unwrapped.replace(ID_BEFORE_FIELD, '').replace(FIELD_BLOCK, '').replace(FIELD_ELEMENT, '')
    : unwrapped;
  if (!delegatedReport) return fieldless;
  // Only the last line and the first few are read: a report can run to many thousands of lines.
  const body = fieldless.trimEnd();
  const lastBreak = body.lastIndexOf('\n');
  if (AGENT_RECORD.test(body.slice(lastBreak + 1))) return body.slice(0, Math.max(lastBreak, 0));
  return body.split('\n', NOTICE_LINES).some((line) => AGENT_RECORD.test(line)) ? '' : fieldless;
}
