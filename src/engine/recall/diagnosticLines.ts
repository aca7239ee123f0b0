/**
 * Error lines of tool results, found by the shape every tool's diagnostics share rather than by one
 * tool's wording: a line that opens with a diagnostic word or an exception's name (`fatal: …`,
 * `ImportError: …`, `error[E0308]: …`, `npm ERR! …`), a compiler's `file:line: error` form, or one of
 * the few phrases operating systems and runtimes print when something is missing or refused. A
 * failed call's lines count more than those of a call that went on; the agent may have worked
 * around either instead of running it again, so each is kept with the call it came from.
 */
import { cleanLine, isNoiseLine } from '../ledger/resultLines';
import { hasSourcePlace, isLocatedMessage } from '../ledger/sourcePlace';
import { candidate, type Candidate } from './candidate';
import type { ToolStep } from './toolSteps';
import type { FileAction } from '../model/ledgerTypes';
import { isFailingTally, TEST_COUNT } from '../ledger/testTally';

/** Scores of a diagnostic line: from a failed call, or from one that otherwise went on. */
export const DIAGNOSTIC_SCORES = { failed: 0.6, wentOn: 0.42 } as const;
/** Most diagnostic lines read from one result. @default 3 */
export const MAX_DIAGNOSTICS_PER_RESULT = 3;
/** Lines of a result looked at from its start, and from its end. @default 400 and 40 — a test run's failures come after its progress lines */
export const DIAGNOSTIC_HEAD_LINES = 400;
export const DIAGNOSTIC_TAIL_LINES = 40;
/** Longest line taken as a diagnostic, in characters: longer lines are data. @default 300 */
export const MAX_DIAGNOSTIC_CHARS = 300;

const OPENS_WITH_DIAGNOSTIC =
  /^(?:error|fatal|panic|exception|traceback|failed|failure|err!?|abort(?:ed)?)\b\s*(?:\[[^\]]*\]|\([^)]*\))?\s*[:!-]/i;
/** A diagnostic word opening a short label before its colon: `Error response from daemon: …`. */
const OPENS_WITH_LABELLED_DIAGNOSTIC = /^(?:error|fatal)\b[^:]{1,40}:\s*\S/i;
/** A runner's verdict in capitals at the start of a line: `ERROR tests/x.py::…`, `FAILED …`, `--- FAIL: TestX`. */
const SHOUTED_VERDICT = /^(?:-{3}\s+)?(?:ERROR|FAILED|FAIL|FATAL|PANIC)\b/;
/** A verdict in capitals anywhere: `BUILD FAILED in 3s`, `tests/a.py::test_b FAILED [ 50%]`, `[ERROR] …`. */
const SHOUTED_ANYWHERE = /(?<![\w=-])(?:FAILED|FAILURE|ERROR|FATAL)(?![\w=-])/;
/**
 * An exception's name opening a line: `KeyError: 'x'`, `java.lang.IllegalStateException`, `Error:`. A type's name
 * starts with a capital; a word that ends so after a small letter (`tFoundException`) is the end of a line a
 * console wrapped, not a name.
 */
const EXCEPTION_NAME = /^(?:[\w$]+\.)*(?:[A-Z_$][\w$]*)?(?:Error|Exception|Failure|Fault)\b\s*(?::|$)/;
/** An exception named after a label: `as_set raised: NotImplementedError: …`, `warning: DeprecationWarning: …`. */
const LABELLED_EXCEPTION = /^[^:]{1,60}:\s+(?:[\w$]+\.)*(?:[A-Z_$][\w$]*)?(?:Error|Exception|Failure|Fault)\b\s*:/;
/** An exception after a word or two: `Uncaught ReferenceError: x is not defined`. */
const PREFIXED_EXCEPTION = /^(?:[\w$.]+\s+){1,2}(?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)\s*:/;
/** An exception named with its package anywhere in the line: `Exception in thread "main" java.lang.IllegalStateException`. */
const QUALIFIED_EXCEPTION = /\b(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception)\b/;
/** A runner's tally that counts failures or warnings: `2 errors in 0.29s`, `Tests: 3 failed, 10 passed`, `1 warning`. */
const FAILING_TALLY = /(?:^|[^\d.])[1-9]\d*\s+(?:errors?|failed|failures?|failing|warnings?)\b(?!\.\w)/i;
/** A tool's name before its diagnostic: `npm ERR! …`, `git: fatal …`, `make: *** … Error 1`. */
const TOOL_PREFIXED = /^[\w.@/-]{1,40}(?:\s+ERR!\s|\s*:\s*(?:error|fatal|failed|cannot|could not|unable|\*{3})(?:\b|\s))/i;
/** A tool's name, then the word, in the case the tool writes it: `npm error code E404`, `CMake Error at …` (not "The error handler"). */
const TOOL_NAMED_ERROR = /^(?:[a-z][\w.@/-]{0,39}\s+(?:error|fatal)|[A-Z][\w.@/-]{0,39}\s+(?:Error|Fatal))\b/;
/**
 * A compiler's location, then the verdict: `src/a.c:3: error …`, `src/a.ts(12,5): error TS2322: …` (tsc, MSBuild),
 * `src/a.ts:12:5 - error TS2322: …` (tsc's pretty form), `  12:5  error  'x' is defined but never used` (ESLint).
 */
const COMPILER_FORM = /^(?:[^\s:(]+(?::\d+(?::\d+)?|\(\d+(?:,\d+)*\))(?::|\s+-)?\s*(?:error|fatal error)\b|\d+:\d+\s{2,}error\s{2,}\S)/i;
/** A compiler's location with line and column, whatever follows: `./main.go:5:2: undefined: foo`. */
const LINE_AND_COLUMN = /^[^\s:]+:\d+:\d+:\s+\S/;
/** A subject, then "error" and its colon: `Syntax error: "(" unexpected`, `Parse error: …`, `Uncaught exception: …`. */
const NAMED_ERROR = /^(?:\p{L}[\p{L}-]*\s+){1,2}(?:error|exception)\s*:\s*\S/iu;
/** A subject, then the verdict: `Compilation failed`, `Build failed with 2 errors`, `Authentication failed for 'x'`. */
const SUBJECT_FAILED = /^(?:\p{L}[\p{L}-]*\s+){1,2}(?:failed|failure)(?:\s*[:.!]|\s*$|\s+(?:with|for|at|in|on|to|because|due)\b)/iu;
/** A test's or a check's verdict of a value: `expected 200, got 500`, `Expected "a" but found "b"`. */
const EXPECTED_GOT = /\bexpected\b.{1,120}?(?:,\s*|\s+but\s+)(?:got|received|found|was)\b/i;
/** An exception's name in parentheses, as Elixir, Ruby and some loggers print it: `** (CompileError) …`, `NoMethodError (undefined method …)`. */
const PARENTHESIZED_EXCEPTION =
  /(?<![\w$])\((?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)\)|^(?:[\w$]+::)*[A-Z][\w$]*(?:Error|Exception)\s+\(/;
/** A search or a lookup that found nothing, said at the start of its answer: `No files found matching "*.toml"`, `no test files found`. */
const NOTHING_FOUND = /^no\s+(?:[\p{L}\d_.-]+\s+){0,2}(?:found|matched)\b/iu;
/** A process ended by a signal or by its own abort, said alone on its line: `Killed`, `Aborting`, `Aborted (core dumped)`. */
const ENDED_ALONE = /^(?:Killed|Aborting|Aborted)(?:\s*\(core dumped\))?\.?$/;
/** A test runner's mark of a failed test: `✕ renders list (12 ms)`, `✗ should save`, TAP's `not ok 3 - parses dates`, bun's `(fail) parser > dates`. */
const FAILURE_MARK = /^(?:[✗✘✕×✖]\s+\p{L}|not ok\s+\d|\(fail\)\s+\S)/u;
/** What a parser or a command line says of input it refuses: `unknown flag: --stat`, `invalid value for --jobs: x`. */
const REFUSED_INPUT = /^(?:unknown|invalid|unexpected|unrecogni[sz]ed|unsupported|illegal)\b[^:]{0,40}:\s*\S/i;
/** A warning: `warning: unused variable`, `npm WARN deprecated …`, `DeprecationWarning: …`, `[WARN] …`. */
const WARNING = /^(?:\[?warn(?:ing)?\]?\b\s*[:!-]|[\w.@/-]{1,40}\s+WARN\b)|\b[A-Z]\w*Warning\b\s*:/i;
/** A diagnostic's code before its message: `TS2322: Type …`, `E0432: unresolved import`. */
const CODED_MESSAGE = /^[A-Z]{1,4}\d{3,5}:\s/;
/** A process that ended badly: `exited with code 1`, `exit status 2`, `returned non-zero exit status 1`, `Command failed: …`. */
const FAILED_EXIT = /\b(?:exit(?:ed)?\s+(?:with\s+)?(?:code|status)\s*[:=]?\s*-?[1-9]\d*|non-zero exit)\b|\bfailed\s*:\s*\S/i;
/** A JSON error with something in it: `{"error": {"code": 401, …}}`, `"errors": [{"message": …}]` (not `"error": null`). */
const JSON_ERROR = /"(?:error|errors|errorMessage|error_message)"\s*:\s*(?:\{\s*"|\[\s*[{"]|"[^"\s][^"]*"|[1-9])/;
/** A system's error code: `ENOENT`, `ERR_MODULE_NOT_FOUND`, `[Errno 13]`, `HTTP 500`, `401 Unauthorized`. */
const ERROR_CODE = new RegExp(
  [
    String.raw`\bE(?:NOENT|ACCES|PERM|CONNREFUSED|CONNRESET|ADDRINUSE|EXIST|ISDIR|NOTDIR|TIMEDOUT|NOTFOUND|PIPE|NOSPC|ROFS|MFILE)\b`,
    String.raw`\bERR_[A-Z_]{3,}\b`,
    String.raw`\[Errno \d+\]`,
    String.raw`\bHTTP(?:\/[\d.]+)?\s+[45]\d\d\b`,
    String.raw`\b[45]\d\d\s+(?:Unauthorized|Forbidden|Not Found|Bad Request|Internal Server Error|Bad Gateway|Service Unavailable|Too Many Requests)\b`,
  ].join('|'),
);
/** What operating systems and runtimes print when something is missing, refused or broke. */
const OS_PHRASES = new RegExp(
  String.raw`\b(?:${[
    'command not found',
    'no such file or directory',
    'permission denied',
    'denied',
    'is not recognized as',
    'cannot find (?:module|symbol|name|package)',
    'module not found',
    'undefined reference',
    'connection refused',
    'segmentation fault',
    'core dumped',
    'panicked at',
    'not found',
    'timed out',
    'failed to',
    'failed with',
    'unable to',
    'could not',
    "couldn't",
    'does not exist',
    'is not defined',
    'out of memory',
    'no space left',
    'address already in use',
    'too many open files',
    'maximum call stack',
    'stack overflow',
    'division by zero',
    'unexpected token',
    'unexpected end of',
    'merge conflict',
    'mismatched types',
    'cannot be converted',
    'has no (?:attribute|member)',
    'is not a function',
    'missing required',
    'no module named',
    'undefined (?:method|function|variable|index|symbol)',
    'unresolved (?:reference|import|symbol)',
    'not permitted',
    'read-only file system',
    'connection reset',
    'cannot find the (?:path|file)',
    '(?:was|were|been) rejected',
    'rejected (?:by|because)',
    'rejected(?=\\])',
  ].join('|')})\b`,
  'i',
);
/** The word "error" or "failed" in the languages tools are most often localized to: whole words, or words of scripts without spaces. */
const LOCALIZED_WORDS = [
  'erreur',
  'échec',
  'échoué',
  'fehler',
  'fehlgeschlagen',
  'errore',
  'fallito',
  'falló',
  'fallo',
  'erro',
  'falhou',
  'ошибка',
  'сбой',
];
const LOCALIZED_UNSPACED = ['错误', '失败', 'エラー', '失敗', '오류', '실패'];
const LOCALIZED_ERROR = new RegExp(`(?<!\\p{L})(?:${LOCALIZED_WORDS.join('|')})(?!\\p{L})|${LOCALIZED_UNSPACED.join('|')}`, 'iu');
/**
 * What every localized word holds: its first three letters, looked for first. A case-insensitive search for whole
 * words in any script tries every character of a line, and almost no line holds one.
 */
const LOCALIZED_STEM = new RegExp([...new Set([...LOCALIZED_WORDS, ...LOCALIZED_UNSPACED].map((w) => w.slice(0, 3)))].join('|'), 'iu');
/** A tally of nothing (`failed: 0`, `0 errors`, `no errors found`, `No issues found`): a runner or a checker saying all went well. */
const ZERO_COUNT = new RegExp(
  [
    String.raw`\b(?:errors?|fail\w*|failures?)\s*[:=]\s*0(?![\d.])`,
    String.raw`(?:^|[^\d.])0\s+(?:errors?|fail\w*|failures?)\b`,
    String.raw`\bno\s+(?:errors?|failures?|problems|issues|warnings|vulnerabilit(?:y|ies)|violations)\b`,
  ].join('|'),
  'i',
);
/** A line of source code or a comment printed by a command (`raise ValueError(…)`, `throw new Error(…)`, `* @throws …`): not a diagnostic. */
const SOURCE_CODE =
  /^(?:\/\/|\/\*|\*\s|#\s)|^(?:raise|throw|except|catch|return|assert|def|function|const|let|var|if|elif|else|print|console\.\w+|log\w*\.\w+)\b|[{;(]$/;
/** A gutter some runners print before a diagnostic: pytest's `E   `, `> `, `● `, `✖ `, `× `, a box's side (`│ Error: …`). */
const GUTTER = /^(?:E\s{2,}|>\s+|[●✖×✗✘│]\s*)/u;
/** A call with a string argument (`t.Fatalf("failed to …", err)`): a line of code, unless a diagnostic opens it. */
const CODE_CALL = /[\w$]\(\s*[`"'f]/;
/** The place a search prints before a file's line: `path:line:` or `path:line-` (grep's context lines). */
const SEARCH_HIT_PLACE = /^[^\s:]+:\d+[:-]\s*/;
/** A line number an editor or a file-reading tool prints before a file's line: `  61→`, `12\t`, `12 | `. */
const LINE_NUMBER = /^\d+(?:→|\t|\s*\|\s)/;
/** A form read in a line at all. */
interface LineForm {
  test(text: string): boolean;
}
/** The word every exception form holds, looked for first: most lines hold none, and the forms' searches are not free. */
const EXCEPTION_WORD = /Error|Exception|Failure|Fault/;
/** `form`, read only in a line that holds what every match of it holds (`word`), a cheaper search. */
const guarded = (word: RegExp, form: RegExp): LineForm => ({ test: (text) => word.test(text) && form.test(text) });
/** `form`, read only in a line that holds an exception's word. */
const withExceptionWord = (form: RegExp): LineForm => guarded(EXCEPTION_WORD, form);
/** A tally's forms, each read only where its words stand: a count of failures or warnings, a count of none. */
const FAILING_TALLY_FORM = guarded(/error|fail|warning/i, FAILING_TALLY);
const ZERO_COUNT_FORM = guarded(/error|fail|problem|issue|warning|vulnerabilit|violation/i, ZERO_COUNT);
/** A warning's form, read only where "warn" stands. */
const WARNING_FORM = guarded(/warn/i, WARNING);

/** Forms that open a line the way only diagnostics do: they decide even when code is quoted after them. */
const OPENING_FORMS: readonly LineForm[] = [
  OPENS_WITH_DIAGNOSTIC,
  OPENS_WITH_LABELLED_DIAGNOSTIC,
  SHOUTED_VERDICT,
  withExceptionWord(EXCEPTION_NAME),
  withExceptionWord(LABELLED_EXCEPTION),
  withExceptionWord(PREFIXED_EXCEPTION),
  TOOL_PREFIXED,
  TOOL_NAMED_ERROR,
  COMPILER_FORM,
  LINE_AND_COLUMN,
  CODED_MESSAGE,
  REFUSED_INPUT,
  NAMED_ERROR,
  SUBJECT_FAILED,
  ENDED_ALONE,
  NOTHING_FOUND,
];
/** Forms found anywhere in a line: they count only in a line that is not code. */
const INNER_FORMS: readonly LineForm[] = [
  SHOUTED_ANYWHERE,
  withExceptionWord(QUALIFIED_EXCEPTION),
  withExceptionWord(PARENTHESIZED_EXCEPTION),
  EXPECTED_GOT,
  FAILING_TALLY_FORM,
  FAILED_EXIT,
  ERROR_CODE,
  JSON_ERROR,
  OS_PHRASES,
  guarded(LOCALIZED_STEM, LOCALIZED_ERROR),
];

/** True when `line` reads like a diagnostic in any tool's format. */
export function isDiagnosticLine(line: string): boolean {
  return diagnosticStrength(line) > 0;
}

/**
 * How plainly `line` reads as a diagnostic: 3 when a diagnostic's form opens it (`ImportError: …`,
 * `FAILED tests/a.py::t - …`, `src/a.c:3:5: error …`), 2 when it only holds one (`tests/a.py::t FAILED [ 50%]`,
 * `… exited with code 1`), 1 for a warning, 0 for any other line.
 */
export function diagnosticStrength(line: string): 0 | 1 | 2 | 3 {
  // A file's line shown with its number is the file's content, whatever it says.
  if (LINE_NUMBER.test(line)) return 0;
  // A search's hit (`src/a.go:147:\treturn pkg.RetryableError(err)`) is a file's line after its place: code stays code.
  const place = SEARCH_HIT_PLACE.exec(line);
  if (place && SOURCE_CODE.test(line.slice(place[0].length))) return 0;
  // The mark is the verdict: the gutter it stands in is taken off only to read what follows other gutters.
  if (FAILURE_MARK.test(line)) return 3;
  const text = line.replace(GUTTER, '');
  if (SOURCE_CODE.test(text) || ZERO_COUNT_FORM.test(text)) return 0;
  if (OPENING_FORMS.some((form) => form.test(text))) return 3;
  if (CODE_CALL.test(text)) return 0;
  if (INNER_FORMS.some((form) => form.test(text))) return 2;
  return WARNING_FORM.test(text) ? 1 : 0;
}

/** The diagnostic lines of a step's result that is not a file's content, as error candidates with the call's subject. */
export function diagnosticCandidates(step: ToolStep): Candidate[] {
  const where = { messageId: step.messageId, seq: step.seq };
  const score = step.ok ? DIAGNOSTIC_SCORES.wentOn : DIAGNOSTIC_SCORES.failed;
  const lines = diagnosticLinesOf(step);
  const chosen = chosenLines(lines, MAX_DIAGNOSTICS_PER_RESULT);
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
  if (step.activity.kind === 'file' && !isFileToolAnswer(step.activity.action, step.result.content)) return [];
  // A line is read once however often it repeats: a log prints the same line hundreds of times, and reading one
  // takes every form. Its place still counts, for the failed tests' causes.
  const read = new Map<string, ReadLine>();
  const lines = edgeLines(step.result.content).map((text) => {
    let line = read.get(text);
    if (!line) read.set(text, (line = readLine(text)));
    return line;
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

/**
 * A stack frame's place in a file: `at <anonymous> (/repo/src/a.test.ts:726:34)`, `at src/a.test.ts:12:5`, vitest's
 * `❯ src/a.test.ts:12:5`. A dependency's or the runtime's frame (`node_modules/…`, `node:internal/…`) says nothing of
 * the test.
 */
const FRAME_PLACE = /^(?:at\s+(?:[^()]*\s)?\(?|❯\s+)([^\s()]+:\d+:\d+)\)?$/u;
/** A mark printed after its test's failure and frames, as their summary: bun's `(fail) …`. */
const SUMMARY_MARK = /^\(fail\)\s/;
const FOREIGN_FRAME = /(?:^|[/\\])node_modules[/\\]|^node:|^internal[/\\]/;

/**
 * Where the test marked at `at` failed, when its mark is the summary a runner prints under the test's failure and names
 * no place itself: the nearest frame of a source file above it, never past another mark. The mark is shown at that
 * place (`src/a.test.ts:726:34: (fail) …`), the form every compiler's diagnostic has, so a failure whose message the
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

function readLine(text: string): ReadLine {
  return { text, strength: text.length > MAX_DIAGNOSTIC_CHARS ? 0 : diagnosticStrength(text), mark: isFailedTestMark(text) };
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
 * (`diagnosticKind`) only when no other kind is left. Warnings only when nothing failed.
 */
function chosenLines(found: readonly DiagnosticLine[], max: number): readonly string[] {
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

/** The cleaned, meaningful lines at the start and the end of `content`, read without splitting all of it. */
function edgeLines(content: string): string[] {
  const lines: string[] = [];
  let at = 0;
  for (let n = 0; n < DIAGNOSTIC_HEAD_LINES && at <= content.length; n++) {
    const next = content.indexOf('\n', at);
    const end = next < 0 ? content.length : next;
    push(content.slice(at, Math.min(end, at + MAX_DIAGNOSTIC_CHARS + 1)), lines);
    at = end + 1;
  }
  if (at > content.length) return lines;
  const tail: string[] = [];
  let stop = content.length;
  for (let n = 0; n < DIAGNOSTIC_TAIL_LINES && stop > at; n++) {
    const start = Math.max(at, content.lastIndexOf('\n', stop - 1) + 1);
    push(content.slice(start, Math.min(stop, start + MAX_DIAGNOSTIC_CHARS + 1)), tail);
    stop = start - 1;
  }
  return [...lines, ...tail.reverse()];
}

function push(raw: string, into: string[]): void {
  const line = cleanLine(raw);
  if (line.length > 0 && !isNoiseLine(line)) into.push(line);
}
