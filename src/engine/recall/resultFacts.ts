/**
 * Facts read from what tools returned: the error a failed call reported, and the outcomes a
 * successful one printed (test counts, versions, commits, URLs, success lines, measured figures,
 * the output of a short program). File contents that were only read are not outcomes.
 */
import { errorAsWritten, printedBesides, type PrintedBesides } from '../ledger/errorSummary';
import { isOnlyHostNote, isProgressLine } from '../ledger/resultLines';
import { repeatedShapes } from '../ledger/frameLines';
import { withoutFields } from '../text/harnessFields';
import type { PrintedAnyway } from './printedAnyway';
import { outputEdges } from './outputEdges';
import { MAX_FACT_TEXT_CHARS, candidate, keyedCandidate, type Candidate } from './candidate';
import { planItems } from './planItems';
import { TEST_COUNT, TEST_FAILURES } from '../ledger/testTally';
import type { ToolStep } from './toolSteps';
import { isDelegation } from './reportFacts';
import { searchesFiles } from './diagnosticLines';
import { holdsMachineToken } from '../text/machineTokens';

/** Scores of what results show. */
export const RESULT_SCORES = {
  /** An error a tool reported; raised when nothing resolved it. */
  error: 0.7,
  tests: 0.75,
  commit: 0.7,
  pullRequest: 0.7,
  url: 0.5,
  version: 0.55,
  success: 0.55,
  measure: 0.5,
  shortOutput: 0.5,
  /** The head line of a search or other tool's answer. */
  otherTool: 0.4,
  id: 0.4,
} as const;

/** Most outcome facts read from one result. @default 3 */
export const MAX_OUTCOMES_PER_RESULT = 3;
/** An output of at most this many meaningful lines is a short program's answer. @default 6 */
export const SHORT_OUTPUT_LINES = 6;
/** Longest line taken as an outcome, in characters: longer lines are data, not verdicts. @default 160 */
export const MAX_OUTCOME_LINE_CHARS = 160;

/** A commit a tool reports: git's `[main 4f1c2e9] …`, `commit 4f1c2e9…` of a log, Aider's `Commit 4f1c2e9 …`. */
const COMMIT = /^\[[^\]\s]+(?: \([^)]*\))? [0-9a-f]{7,40}\]|\b[Cc]ommit [0-9a-f]{7,40}\b/;
const URL = /https?:\/\/[^\s<>"'`)\]]+/g;
const PULL_REQUEST = /\/(?:pull|pulls|merge_requests|issues|commit|releases)\/\w/;
const VERSION = /(?:^|[\s@"'=:v(^~])\d+\.\d+\.\d+(?:[-+][\w.]+)?\b|\bversion:?\s+v?\d+\.\d+/i;
const SUCCESS_WORDS = [
  'success(?:ful(?:ly)?)?',
  'succeeded',
  'compiled',
  'built',
  'deployed',
  'published',
  'installed',
  'created',
  'generated',
  'wrote',
  'saved',
  'merged',
  'pushed',
  'completed',
  'finished',
  String.raw`found \d+`,
];
/** A runner's or a script's mark of a check that passed: `✓ parse("x") -> rejected`, `✔ saves the draft`, TAP's `ok 3 - parses dates`, bun's `(pass) …`. */
const PASS_MARK = /^(?:[✓✔]\s*\S|ok\s+\d+\s|\(pass\)\s+\S)/u;
const SUCCESS = new RegExp(String.raw`\b(?:${SUCCESS_WORDS.join('|')})\b`, 'i');
/** A member of a JSON document printed one per line (`"success": false,`): a field of the data, whatever its name says. */
const JSON_MEMBER = /^"[^"]*"\s*:/;
/**
 * A label, a colon or an equals sign, and a figure with its unit (`Total size: 118 412 bytes`, `mean absolute error =
 * 0.0412`); the figure's thousands may be set apart by a space, as many locales print them. A colon between two digits
 * is a time or a ratio (`4096 Mar 3 09:41 fixtures` of a listing), not a label's.
 */
const MEASURE =
  /^[\p{L}][\p{L}\p{N} _/()-]{1,40}(?:(?<!\d):|:(?=\s)|\s=)\s*[-+]?\d[\d,._]*(?:[ \u00a0\u202f]\d{3}(?![\d,._]))*\s*[\p{L}%]{0,12}$/u;
/** The same pair as a table's row of two cells: `| p95 latency | 212 ms |`. */
const MEASURE_ROW = /^\|\s*[\p{L}][\p{L}\p{N} _/()-]{1,40}\|\s*[-+]?\d[\d,._]*(?:[ \u00a0\u202f]\d{3}(?![\d,._]))*\s*[\p{L}%]{0,12}\s*\|$/u;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const MARKUP = /(?<![\w$.])<[!/]?[A-Za-z][^>]*>/;
/** The opening of a markup document: `<!DOCTYPE html`, `<html …>`, `<?xml …?>`, `<svg …>`. */
const MARKUP_DOCUMENT = /^<(?:!DOCTYPE\b|\?xml\b|html\b|svg\b)/i;
const LETTER = /\p{L}/u;
const DIGIT = /\d/;
const MARKDOWN_HEADING = /^#{1,6}\s/;
const HEADER_ROW = /^[A-Z][A-Z_]*(?:\s+[A-Z][A-Z_]*)+$/;
/** Words one of which every test-count line holds (lower case). */
const TEST_WORDS = ['pass', 'fail', 'error', 'skip', 'pend', 'broken', 'test', 'ran '];

/**
 * Meaningful lines read at each end of an output for outcomes.
 * @default 6 — a header and its first answers at the top, a runner's verdict at the bottom.
 */
export const OUTCOME_EDGE_LINES = 6;

/** What else a failed step printed besides its program's complaint (see `PrintedBesides`). */
function printedBy(step: ToolStep): PrintedBesides {
  if (searchesFiles(step)) return 'searchHits';
  return step.activity.kind === 'command' ? printedBesides(step.activity.commands) : 'own';
}

/** The error fact of a failed step, with what it was about. */
export function errorFact(step: ToolStep): Candidate | undefined {
  const where = { messageId: step.messageId, seq: step.seq };
  return candidate(
    'error',
    errorAsWritten(step.result.content, printedBy(step)),
    where,
    RESULT_SCORES.error,
    step.subject ? { subject: step.subject } : {},
  );
}

/**
 * Outcome facts of a successful step; test runs that report failures give an error fact instead.
 * The harness's fields, the lines the step's program prints whatever happens (`anyway`) and the
 * lines of a run it prints item by item are no outcome (see `frameLines`).
 */
export function resultFacts(step: ToolStep, anyway?: PrintedAnyway): Candidate[] {
  const kind = step.activity.kind;
  if (kind === 'file' || isOnlyHostNote(step.result.content)) return [];
  const where = { messageId: step.messageId, seq: step.seq };
  const edges = edgeLines(withoutFields(step.result.content, isDelegation(step)));
  const runs = repeatedShapes(edges.lines);
  // A line says something when it has words, or is a version on its own (`v20.11.1`).
  const lines = edges.lines.filter(
    (l, i) =>
      l.length <= MAX_OUTCOME_LINE_CHARS * 4 &&
      (hasLetters(l, 3) || (l.length <= 40 && VERSION.test(l))) &&
      !runs.has(i) &&
      anyway?.has(step, l) !== true,
  );
  // A URL in a markup document (a doctype, a namespace, a link) is part of the document, not something the call produced.
  const markup = lines.some((l) => MARKUP_DOCUMENT.test(l));
  // A plan or to-do tool answers a written plan with the same acknowledgement every time: the plan's items are the facts.
  const acknowledgesPlan = step.call !== undefined && planItems(step.call.input).length > 0;
  const found: Candidate[] = [];
  const add = (c: Candidate | undefined) => {
    if (c && !found.some((f) => f.key === c.key)) found.push(c);
  };
  for (const line of lines) {
    const short = line.length <= MAX_OUTCOME_LINE_CHARS;
    const digits = DIGIT.test(line);
    const lower = digits ? line.toLowerCase() : '';
    if (digits && short && TEST_WORDS.some((w) => lower.includes(w)) && TEST_COUNT.test(line)) {
      const failing = TEST_FAILURES.test(line);
      add(candidate(failing ? 'error' : 'outcome', line, where, failing ? RESULT_SCORES.error : RESULT_SCORES.tests, subjectOf(step)));
    } else if (digits && (line.startsWith('[') || lower.includes('commit')) && COMMIT.test(line)) {
      add(candidate('outcome', line, where, RESULT_SCORES.commit));
    } else if (digits && short && line.includes('.') && VERSION.test(line) && !isProgressLine(line)) {
      add(candidate('outcome', line, where, RESULT_SCORES.version));
    } else if (short && !acknowledgesPlan && PASS_MARK.test(line)) add(candidate('outcome', line, where, RESULT_SCORES.success));
    else if (short && !acknowledgesPlan && SUCCESS.test(line) && !isProgressLine(line) && !JSON_MEMBER.test(line)) {
      add(candidate('outcome', line, where, RESULT_SCORES.success));
    } else if (
      digits &&
      (((line.includes(':') || line.includes('=')) && MEASURE.test(line)) || (line.startsWith('|') && MEASURE_ROW.test(line)))
    ) {
      add(candidate('outcome', line, where, RESULT_SCORES.measure));
    }
    if (!markup && line.includes('http') && !MARKUP.test(line)) {
      for (const url of line.matchAll(URL)) {
        // A link to follow, not an outcome.
        if (holdsMachineToken(url[0])) continue;
        const pr = PULL_REQUEST.test(url[0]);
        add(keyedCandidate('outcome', url[0].replace(/[.,:;]+$/, ''), line, where, pr ? RESULT_SCORES.pullRequest : RESULT_SCORES.url));
      }
    }
    if (digits && line.includes('-')) {
      for (const id of line.matchAll(UUID)) {
        add(keyedCandidate('identifier', tokenAround(line, id.index, id[0].length), line, where, RESULT_SCORES.id));
      }
    }
  }
  // A table's header row (`NAME  STATUS  AGE`) names columns, and a report's heading (`## Summary`) names a part: what follows is the answer.
  const head = lines.find(
    (l) => !isProgressLine(l) && !MARKUP.test(l) && !HEADER_ROW.test(l) && !MARKDOWN_HEADING.test(l) && !JSON_MEMBER.test(l),
  );
  // A short output read whole is the answer itself: its head line is one as long as a fact is (a search's one hit,
  // `reconcile.go:212:func ReconcileInvoices(ctx context.Context, …) ([]InvoiceDiff, error) {`), where in a long
  // output a long line is data.
  const answer = edges.whole && lines.length <= SHORT_OUTPUT_LINES;
  if (head !== undefined && head.length <= (answer ? MAX_FACT_TEXT_CHARS : MAX_OUTCOME_LINE_CHARS) && !acknowledgesPlan) {
    if (kind === 'command' && answer) {
      add(candidate('outcome', head, where, RESULT_SCORES.shortOutput));
    } else if (kind === 'other') add(candidate('outcome', head, where, RESULT_SCORES.otherTool));
  }
  return found.sort((a, b) => b.score - a.score).slice(0, MAX_OUTCOMES_PER_RESULT);
}

/** Characters of a line read: longer lines are data (minified code, a dump), never a verdict. @default 1000 */
const EDGE_LINE_CHARS = 1000;

/** The meaningful lines at the two ends of an output (see `outputEdges`), top first. */
function edgeLines(content: string): { lines: string[]; whole: boolean } {
  const { head, tail, whole } = outputEdges(content, OUTCOME_EDGE_LINES, OUTCOME_EDGE_LINES, EDGE_LINE_CHARS);
  return { lines: [...head, ...tail], whole };
}

/** True when the line has at least `count` letters; ASCII letters are counted without a regular expression. */
function hasLetters(line: string, count: number): boolean {
  let found = 0;
  for (let i = 0; i < line.length && found < count; i++) {
    const c = line.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0x80 && LETTER.test(line[i]))) found++;
  }
  return found >= count;
}

/** The whitespace-delimited token holding `line[at, at + length)`, trailing punctuation taken off. */
function tokenAround(line: string, at: number, length: number): string {
  let start = at;
  let end = at + length;
  while (start > 0 && !/\s/.test(line[start - 1])) start--;
  while (end < line.length && !/\s/.test(line[end])) end++;
  return line.slice(start, end).replace(/[.,:;]+$/, '');
}

function subjectOf(step: ToolStep): { subject?: string } {
  return step.subject ? { subject: step.subject } : {};
}
