/**
 * The fields a harness wraps a tool's result in rather than what the tool said, told by their shape: an element on one
 * line (`<status>completed</status>`, `<retrieval_status>success</retrieval_status>`), or an element whose lines are all
 * a key and a value (`<usage>total_tokens: 49100` … `duration_ms: 57709</usage>`), with the id the harness notes on the
 * line before it (`agentId: a31be88 (…)`).
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

/** `content` without the harness's field elements (see the header); the same string when it has none. */
export function withoutFields(content: string): string {
  if (!content.includes('</')) return content;
  return content.replace(ID_BEFORE_FIELD, '').replace(FIELD_BLOCK, '').replace(FIELD_ELEMENT, '');
}
