/**
 * Failures a delegated agent states in its report. A sub-agent's result is prose, not an error
 * line with an exit code: "My investigation was interrupted before I could…" says the delegated
 * work did not finish, and the call itself still succeeded. Only the report's opening is read,
 * where such a verdict stands, and only failures are taken: a report, like any tool result, is
 * data and never makes a decision. Its lists and tables describe parts of the work (its features,
 * the requirements it was given), so a verdict is read from its sentences only; and once the report
 * has begun its sections (a heading after its opening words), what follows describes what it looked
 * at ("Three checks decide what counts as a failure."), not what became of the work.
 */
import { splitSentences, textProseLines } from '../text/prose';
import { delegatesWork } from '../text/nameWords';
import { candidate, type Candidate } from './candidate';
import { statementOf } from './statementCues';
import type { ToolStep } from './toolSteps';

/** Characters read from the start of a report. @default 1500 — its verdict and first findings. */
export const REPORT_HEAD_CHARS = 1500;
/** Most failure facts from one report. @default 2 */
export const MAX_REPORT_FAILURES = 2;
/** A JSON field opening a line (`"summary": "`), and the end of a JSON string: reports are often JSON. */
const JSON_FIELD_START = /^\s*[[{]?\s*"[\w -]{1,40}"\s*:\s*"/;
const JSON_STRING_END = /"\s*[,}\]]*\s*$/;
/** A line break inside a JSON string, as written. */
const ESCAPED_BREAK = /\\n/;
/**
 * An item of a list or a row of a table: a part the report describes (a feature, a requirement, a
 * step: "- Fails gracefully with appropriate HTTP status codes"), not what became of the work.
 */
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)]|\|)\s/;
/** A Markdown heading: a report's section begins. */
const HEADING = /^\s*#{1,6}\s/;

/** True when the step called a tool that hands work to another agent. */
export function isDelegation(step: ToolStep): boolean {
  return step.activity.kind === 'other' && step.call !== undefined && delegatesWork(step.call.name);
}

/** The failures the report of a delegation states in its opening, as error facts. */
export function reportFailures(step: ToolStep): Candidate[] {
  const call = step.call;
  if (call === undefined || !isDelegation(step)) return [];
  const where = { messageId: step.messageId, seq: step.seq };
  const failures: Candidate[] = [];
  const head = step.result.content.slice(0, REPORT_HEAD_CHARS);
  // Code a report quotes (`const { error } = useTodos();`) states nothing.
  let opened = false;
  for (const raw of textProseLines(head)) {
    for (const line of raw.split(ESCAPED_BREAK)) {
      if (HEADING.test(line)) {
        if (opened) return failures;
        continue;
      }
      if (line.trim().length > 0) opened = true;
      if (LIST_ITEM.test(line)) continue;
      const text = line.replace(JSON_FIELD_START, '').replace(JSON_STRING_END, '');
      for (const sentence of splitSentences(text)) {
        const statement = statementOf(sentence);
        if (statement?.kind !== 'error') continue;
        const fact = candidate('error', sentence, where, statement.score, { subject: call.name });
        if (fact) failures.push(fact);
        if (failures.length >= MAX_REPORT_FAILURES) return failures;
      }
    }
  }
  return failures;
}
