/**
 * The fields a harness wraps a tool's result in rather than what the tool said, told by their shape: an element on one
 * line (`<status>completed</status>`, `<retrieval_status>success</retrieval_status>`), or an element whose lines are all
 * a key and a value (`<usage>total_tokens: 49100` … `duration_ms: 57709</usage>`), with the id the harness notes on the
 * line before it (`agentId: a31be88 (…)`), or, in a delegated agent's report, on its last line or in its first lines.
 */

/** An element on one line: the harness's field, not something the tool printed. */
const FIELD_ELEMENT = /^[ \t]*<([A-Za-z][\w.-]*)(?:\s[^<>]*)?>[^<>\n]{0,200}<\/\1>[ \t]*$/gm;
/** An element over several lines, every line of it a key and a value. */
const FIELD_BLOCK = /^[ \t]*<([A-Za-z][\w.-]*)>[ \t]*(?:[\w.-]+:[^<\n]*\n[ \t]*)*[\w.-]+:[^<\n]*<\/\1>[ \t]*$/gm;

/**
 * A key and an id on the line right before such a field, with the harness's note on it: the record of the agent that
 * wrote the result (`agentId: a31be88 (use SendMessage with to: 'a31be88' to continue this agent)` above `<usage>…`).
 * An id holds a letter and a digit, so a sentence or a verdict (`Status: done`, `Total: 42`) is no id.
 */
const ID_BEFORE_FIELD =
  /^[ \t]*[A-Za-z][\w.-]*:[ \t]+(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z])[\w.-]+(?:[ \t]+\([^()\n]*\))?[ \t]*\n(?=[ \t]*<([A-Za-z][\w.-]*)>[^<]*<\/\1>)/gm;

/** A key, an id and the harness's note on one line: the record of the agent a call delegated work to. */
const AGENT_RECORD = /^[ \t]*[A-Za-z][\w.-]*:[ \t]+(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z])[\w.-]+[ \t]+\([^()\n]*\)[ \t]*$/;
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
  const fieldless = content.includes('</')
    ? content.replace(ID_BEFORE_FIELD, '').replace(FIELD_BLOCK, '').replace(FIELD_ELEMENT, '')
    : content;
  if (!delegatedReport) return fieldless;
  const lines = fieldless.trimEnd().split('\n');
  const last = lines.length - 1;
  if (AGENT_RECORD.test(lines[last])) return lines.slice(0, last).join('\n');
  return lines.slice(0, NOTICE_LINES).some((line) => AGENT_RECORD.test(line)) ? '' : fieldless;
}
