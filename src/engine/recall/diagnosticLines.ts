/**
 * Error lines of tool results, found by the shape every tool's diagnostics share rather than by one tool's wording
 * (`ledger/diagnosticForms`), read at a result's head and tail, with what a failed test failed with and where. A
 * failed call's lines count more than those of a call that went on; the agent may have worked around either instead of
 * running it again, so each is kept with the call it came from.
 */
import { cleanLine, isNoiseLine } from '../ledger/resultLines';
import { diagnosticStrength, exceptionsRaisedIn, FAILURE_MARK, MAX_DIAGNOSTIC_CHARS, SHOUTED_VERDICT } from '../ledger/diagnosticForms';
import { hasSourcePlace, isLocatedMessage } from '../ledger/sourcePlace';
import { candidate, type Candidate } from './candidate';
import type { ToolStep } from './toolSteps';
import type { FileAction } from '../model/ledgerTypes';
import { isFailingTally, TEST_COUNT } from '../ledger/testTally';
import { isSearchHit, printsSearchHits } from '../ledger/searchPrograms';
import { searchedFor } from '../ledger/callSubject';
import { diffChanges } from '../ledger/diffHunks';
import { powerShellMessage } from '../ledger/powerShellErrors';
import { isDelegation } from './reportFacts';
import { withoutHostFrame } from '../text/hostFrame';
import { withErrorObjectRead } from '../text/errorObject';

/** Scores of a diagnostic line: from a failed call, or from one that otherwise went on. */
export const DIAGNOSTIC_SCORES = { failed: 0.6, wentOn: 0.42 } as const;
/** Most diagnostic lines read from one result. @default 3 */
export const MAX_DIAGNOSTICS_PER_RESULT = 3;
/** Lines of a result looked at from its start, and from its end. @default 400 and 40 — a test run's failures come after its progress lines */
export const DIAGNOSTIC_HEAD_LINES = 400;
export const DIAGNOSTIC_TAIL_LINES = 40;

/** The diagnostic lines of a step's result that is not a file's content, as error candidates with the call's subject. */
export function diagnosticCandidates(step: ToolStep): Candidate[] {
  const where = { messageId: step.messageId, seq: step.seq };
  const score = step.ok ? DIAGNOSTIC_SCORES.wentOn : DIAGNOSTIC_SCORES.failed;
  const lines = diagnosticLinesOf(step);
  const chosen = chosenLines(lines, MAX_DIAGNOSTICS_PER_RESULT, step.ok);
  const found: Candidate[] = [];
  // The host's note that the output went to a file says the call's output did not reach the model whole.
  for (const line of step.notice === undefined ? chosen : [step.notice, ...chosen]) {
    const fact = candidate('error', line, where, score, step.subject ? { subject: step.subject } : {});
    if (fact) found.push(fact);
  }
  return found;
}

/** A diagnostic line of a result: how plainly it reads as one, and what it is to a failed test of a runner's output. */
export interface DiagnosticLine {
  readonly text: string;
  readonly strength: number;
  /** `mark`: a runner's mark of a failed test; `cause`: the diagnostic nearest such a mark, the error the test failed with. */
  readonly failedTest?: 'mark' | 'cause';
}

/**
 * Lines on either side of a runner's mark of a failed test (`(fail) …`, `✕ …`, `--- FAIL: …`, jest's `● …`)
 * within which the plainest, then nearest, diagnostic is read as what the test failed with: runners print it just before
 * or just after the mark, while errors elsewhere in a test run are often what passing tests log.
 * @default 10
 */
export const FAILED_TEST_REACH = 10;

/**
 * Every diagnostic line of a result that is not a file's content, read where {@link diagnosticCandidates}
 * reads (the result's head and tail), deduplicated, in order.
 */
export function diagnosticLinesOf(step: ToolStep): readonly DiagnosticLine[] {
  if (step.activity.kind === 'file' && !isFileToolAnswer(step.activity.action, step.result.content) && !readsLogs(step.activity)) return [];
  // A line is read once however often it repeats: a log prints the same line hundreds of times, and reading one
  // takes every form. Its place still counts, for the failed tests' causes.
  const read = new Map<string, ReadLine>();
  // A search's hits are lines of the files it matched, whatever they say (`lib/a.go:12: return errors.New("not found")`).
  const hits = searchesFiles(step);
  // A delegated agent's report is prose: a sentence that says a command "exits with code 1" describes the code it read;
  // an error it quotes stands on a line that a diagnostic's form opens.
  const report = isDelegation(step);
  // A host's label and record of the run are no diagnostics; a one-line element may be (`<error>…</error>`), so only they go.
  const lines = edgeLines(withoutHostFrame(step.result.content)).flatMap(({ text, raised }) => {
    if (hits && isSearchHit(text)) return [];
    let line = read.get(text);
    if (!line) read.set(text, (line = readLine(text, report)));
    // The exception a traceback ends with reads as plainly as any diagnostic, however it is named.
    return [raised && line.strength < 3 ? { ...line, strength: 3 } : line];
  });
  // A run that went on and whose tally counts no failure passed: its error lines are what its tests log on purpose.
  if (step.ok && passedTally(lines)) return [];
  const causes = new Set<string>();
  const placed = new Map<string, string>();
  lines.forEach((line, at) => {
    if (!line.mark) return;
    const place = failedTestPlace(lines, at);
    if (place !== undefined) placed.set(line.text, `${place}: ${line.text}`);
    let nearest: number | undefined;
    for (let i = Math.max(0, at - FAILED_TEST_REACH); i <= Math.min(lines.length - 1, at + FAILED_TEST_REACH); i++) {
      // A verdict (`FAIL src/a.test.ts`) says that something failed, not with what.
      if (lines[i].strength === 0 || lines[i].mark || SHOUTED_VERDICT.test(lines[i].text)) continue;
      if (causesBetter(lines, at, i, nearest)) nearest = i;
    }
    nearest ??= locatedUnder(lines, at);
    if (nearest !== undefined) causes.add(lines[nearest].text);
  });
  const seen = new Set<string>();
  const found: DiagnosticLine[] = [];
  for (const { text, strength, mark } of lines) {
    const cause = causes.has(text);
    if ((strength === 0 && !cause) || seen.has(text)) continue;
    seen.add(text);
    const failedTest = cause ? 'cause' : mark ? 'mark' : undefined;
    // What a test failed with reads as plainly as the mark that names the test, whatever its words.
    const shown = placed.get(text) ?? text;
    found.push({ text: shown, strength: cause ? Math.max(strength, 2) : strength, ...(failedTest ? { failedTest } : {}) });
  }
  return found;
}

/** True when the step searched files: a search program ran in its last pipeline, or a tool was given what to look for. */
export function searchesFiles(step: ToolStep): boolean {
  if (step.activity.kind === 'command') return printsSearchHits(step.activity.commands);
  return step.activity.kind === 'other' && step.call !== undefined && searchedFor(step.call) !== undefined;
}

/**
 * The first message at a source location under the failed test's mark at `at`, before the next mark: what a runner
 * that prints a test's failure in the test's own words (Go's `parser_test.go:22: got 6 windows, want 7` under
 * `--- FAIL: TestParserWindow`) says it failed with, when no line near the mark reads as a diagnostic.
 */
function locatedUnder(lines: readonly ReadLine[], at: number): number | undefined {
  for (let i = at + 1; i <= Math.min(lines.length - 1, at + FAILED_TEST_REACH); i++) {
    if (lines[i].mark) return undefined;
    if (isLocatedMessage(lines[i].text)) return i;
  }
  return undefined;
}

/** A stack frame's place in a file: `at <anonymous> (/repo/src/a.test.ts:318:27)`, `at src/a.test.ts:12:5`, vitest's `❯ src/a.test.ts:12:5`. */
const FRAME_PLACE = /^(?:at\s+(?:[^()]*\s)?\(?|❯\s+)([^\s()]+:\d+:\d+)\)?$/u;
/** The place of a dependency's or the runtime's frame (`node_modules/…`, `node:internal/…`): it says nothing of the test. */
const FOREIGN_FRAME = /(?:^|[/\\])node_modules[/\\]|^node:|^internal[/\\]/;
/** A mark printed after its test's failure and frames, as their summary: bun's `(fail) …`. */
const SUMMARY_MARK = /^\(fail\)\s/;

/**
 * Where the test marked at `at` failed, when its mark is the summary a runner prints under the test's failure and names
 * no place itself: the nearest frame of a source file above it, never past another mark. The mark is shown at that
 * place (`src/a.test.ts:318:27: (fail) …`), the form every compiler's diagnostic has, so a failure whose message the
 * host cut off still says where to look. A heading mark (jest's `● …`) is no line of its own: its test's error is.
 */
function failedTestPlace(lines: readonly ReadLine[], at: number): string | undefined {
  const mark = lines[at].text;
  if (!SUMMARY_MARK.test(mark) || hasSourcePlace(mark)) return undefined;
  for (let i = at - 1; i >= 0 && i >= at - FAILED_TEST_REACH; i--) {
    if (lines[i].mark) return undefined;
    const place = FRAME_PLACE.exec(lines[i].text)?.[1];
    if (place !== undefined && !FOREIGN_FRAME.test(place)) return place;
  }
  return undefined;
}

/** Lines at the end of an output where a runner prints its tally, below what its tests log. @default 12 */
const TALLY_LINES = 12;

/**
 * True when the last tally among the last lines of an output counts no failure and no line marks a failed test: the
 * runner's verdict, below what its tests log (`[Limiter] task 2 failed:` counts, but is no verdict).
 */
function passedTally(lines: readonly ReadLine[]): boolean {
  if (lines.some((line) => line.mark)) return false;
  const tally = lines
    .slice(-TALLY_LINES)
    .map((line) => line.text)
    .filter((text) => TEST_COUNT.test(text))
    .at(-1);
  return tally !== undefined && !isFailingTally(tally);
}

/** A line as read: how plainly it reads as a diagnostic, and whether it marks a failed test. */
interface ReadLine {
  readonly text: string;
  readonly strength: number;
  readonly mark: boolean;
}

function readLine(text: string, report: boolean): ReadLine {
  // A longer line is data, unless a diagnostic's form opens it: a compiler prints a whole type in its complaint.
  const strength = text.length > MAX_DIAGNOSTIC_CHARS ? openedAsDiagnostic(text) : diagnosticStrength(text);
  return { text, strength: report && strength < 3 ? 0 : strength, mark: isFailedTestMark(text) };
}

/** 3 when a diagnostic's form opens the line's head (`src/a.ts:12:5 - error TS2339: …`), else 0. */
function openedAsDiagnostic(text: string): 0 | 3 {
  return diagnosticStrength(text.slice(0, MAX_DIAGNOSTIC_CHARS)) === 3 ? 3 : 0;
}

/**
 * Whether line `i` is likelier than line `than` to be what the test marked at `at` failed with: the plainer
 * diagnostic (a log line that says "failure" is not a test's error), then the nearer; of two as near, the one
 * after the mark, since most runners print a test's error under its name.
 */
function causesBetter(lines: readonly { readonly strength: number }[], at: number, i: number, than: number | undefined): boolean {
  if (than === undefined) return true;
  const plainer = lines[i].strength - lines[than].strength;
  if (plainer !== 0) return plainer > 0;
  const distance = Math.abs(i - at);
  const other = Math.abs(than - at);
  return distance < other || (distance === other && i > at);
}

/**
 * Most lines of a file read's result that are the tool's own answer rather than the file: a read that
 * printed one line that reads as a diagnostic said the file could not be read. @default 1 — a file of
 * two or three lines can hold an error's name as text.
 */
export const FILE_READ_ANSWER_LINES = 1;

/**
 * Most lines of a read's result that opens with a diagnostic and is still the reading command's complaint (`error: the
 * argument '--plain' cannot be used with '--number'`, its usage, a hint) rather than a file that starts with an error's words.
 * @default 12
 */
export const FAILED_READ_ANSWER_LINES = 12;

/**
 * Whether a file tool's result is the tool speaking (a write's or an edit's confirmation or complaint,
 * a read that printed a single line, a short answer that opens with a diagnostic) rather than a file's content,
 * whose error-like lines are text.
 */
function isFileToolAnswer(action: FileAction, content: string): boolean {
  if (action !== 'read') return true;
  let lines = 1;
  for (let at = content.indexOf('\n'); at >= 0 && at < content.length - 1; at = content.indexOf('\n', at + 1)) {
    if (++lines > FAILED_READ_ANSWER_LINES) return false;
  }
  if (lines <= FILE_READ_ANSWER_LINES) return true;
  const first = content.split('\n', 1)[0];
  return diagnosticStrength(cleanLine(first)) === 3;
}

/**
 * A log's name: a `.log` file (rotated or not: `app.log.1`) or any file of a `log` or `logs` folder. Its lines are what
 * programs printed, not text someone wrote: an error in it is an error the program met.
 */
const LOG_FILE = /\.log(?:\.\d+)?$|(?:^|[/\\])logs?[/\\][^/\\]+$/i;

/** True when a file tool read logs only: their diagnostics are read as a command's would be. */
function readsLogs(activity: Extract<ToolStep['activity'], { kind: 'file' }>): boolean {
  return activity.action === 'read' && activity.paths.length > 0 && activity.paths.every((p) => LOG_FILE.test(p));
}

/** A runner's mark of one failed test at the start of a line, not a file's or a package's verdict: `--- FAIL: TestX`, jest's `● suite › test`. */
const FAILED_TEST_VERDICT = /^(?:-{3}\s+FAIL:\s*\S|●\s+\S)/u;

/** A runner's mark of one failed test: `(fail) parser > dates`, `✕ renders`, `not ok 3 - dates`, `--- FAIL: TestX`, `● suite › test`. */
function isFailedTestMark(line: string): boolean {
  return FAILURE_MARK.test(line) || FAILED_TEST_VERDICT.test(line);
}

/**
 * At most `max` of `lines`, in their order: the last one always (a runner's verdict stands at the
 * end of its output), the others first what a failed test failed with and its mark (in a test
 * run, the errors elsewhere are often what passing tests log), then the first that a diagnostic's form opens (the
 * first error is the one the rest follow from, and a progress line that only says FAILED tells less
 * than the exception it stands for), then the first of the rest; a kind of diagnostic already taken
 * (`diagnosticKind`) only when no other kind is left. Warnings only when nothing plainer was printed, or when the call went
 * on and every line fits.
 */
function chosenLines(found: readonly DiagnosticLine[], max: number, wentOn: boolean): readonly string[] {
  // Beside the error a call failed with, a warning is noise; of a call that went on, a warning is what its plainer
  // lines count ("rendering done, 1 warning."), so it gives way only when there is no room for both.
  if (wentOn && found.length <= max) return found.map((l) => l.text);
  const lines = found.some((l) => l.strength > 1) ? found.filter((l) => l.strength > 1) : found;
  if (lines.length <= max) return lines.map((l) => l.text);
  const last = lines.length - 1;
  const rest = lines.slice(0, last).map((line, index) => ({ ...line, index }));
  const ranked = rest.sort((a, b) => failedTestRank(b) - failedTestRank(a) || b.strength - a.strength || a.index - b.index);
  // A linter or a compiler prints a rule's complaint for every place it applies: each kind once says more.
  const kinds = new Set([diagnosticKind(lines[last].text)]);
  const first: typeof ranked = [];
  for (const line of ranked) {
    if (first.length >= max - 1) break;
    const kind = diagnosticKind(line.text);
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    first.push(line);
  }
  for (const line of ranked) if (first.length < max - 1 && !first.includes(line)) first.push(line);
  return [...first.sort((a, b) => a.index - b.index).map((l) => l.text), lines[last].text];
}

/** Where a diagnostic stands, at the start of its line: `src/a.ts:12:5: `, `src/a.ts(12,5): `, `docs/a.md:7 `. */
const LEADING_PLACE = /^[^\s:(]+(?::\d+)+:?\s*|^[^\s(]+\(\d+(?:,\d+)*\):?\s*/;
/** What a diagnostic quotes of the place it is about: `[Context: "…"]`, `'x'`, `"y"`. */
const QUOTED = /\[[^\]]*\]|"[^"]*"|'[^']*'|`[^`]*`/g;

/** A diagnostic line without where it stands, what it quotes and its figures: the same for every place one rule applies to. */
export function diagnosticKind(line: string): string {
  return line.replace(LEADING_PLACE, '').replace(QUOTED, '…').replace(/\d+/g, '#');
}

/** What a failed test's cause, then its mark, weigh in the choice: more than any other line. */
function failedTestRank(line: DiagnosticLine): number {
  return line.failedTest === 'cause' ? 2 : line.failedTest === 'mark' ? 1 : 0;
}

/** A cleaned, meaningful line at the start or the end of a result, and whether a Python traceback ends with it. */
interface EdgeLine {
  readonly text: string;
  readonly raised: boolean;
}

/** The cleaned, meaningful lines at the start and the end of `content`, read without splitting all of it. */
function edgeLines(content: string): EdgeLine[] {
  const head: string[] = [];
  let at = 0;
  for (let n = 0; n < DIAGNOSTIC_HEAD_LINES && at <= content.length; n++) {
    const next = content.indexOf('\n', at);
    const end = next < 0 ? content.length : next;
    head.push(content.slice(at, Math.min(end, at + MAX_DIAGNOSTIC_CHARS + 1)));
    at = end + 1;
  }
  if (at > content.length) return cleaned(head);
  const tail: string[] = [];
  let stop = content.length;
  for (let n = 0; n < DIAGNOSTIC_TAIL_LINES && stop > at; n++) {
    const start = Math.max(at, content.lastIndexOf('\n', stop - 1) + 1);
    tail.push(content.slice(start, Math.min(stop, start + MAX_DIAGNOSTIC_CHARS + 1)));
    stop = start - 1;
  }
  return [...cleaned(head), ...cleaned(tail.reverse())];
}

/**
 * The meaningful ones of a run of raw lines, cleaned, each with whether a traceback of the run ends with it; without the
 * lines a diff adds or removes, which are files' lines.
 */
function cleaned(raw: readonly string[]): EdgeLine[] {
  const raised = exceptionsRaisedIn(raw);
  const changed = raw.some((line) => line.startsWith('@@')) ? diffChanges(raw) : undefined;
  const lines: EdgeLine[] = [];
  raw.forEach((line, at) => {
    if (changed?.has(at) === true) return;
    const text = withErrorObjectRead(cleanLine(raised.has(at) ? powerShellMessage(line) : line));
    if (text.length > 0 && !isNoiseLine(text)) lines.push({ text, raised: raised.has(at) });
  });
  return lines;
}
