/**
 * What a diagnostic line looks like, in any tool's format: a line that opens with a diagnostic word or an exception's
 * name (`fatal: …`, `ImportError: …`, `error[E0308]: …`, `npm ERR! …`), a compiler's `file:line: error` form, a
 * runner's mark of a failed test, or one of the few phrases operating systems and runtimes print when something is
 * missing or refused; and how plainly a line reads as one. Read by the recall's diagnostic lines of a result and by
 * the ledger, which shows the error lines of a pasted log that a preview leaves out.
 */
import { powerShellErrorMessages } from './powerShellErrors';
import { atEscapedBreaks, cleanLine } from './resultLines';
import { detailOf, OPENS_BODY } from './errorSummary';
import { TRACEBACK_FRAME, tracebackEnds } from './uncaughtException';

/** Longest line taken as a diagnostic, in characters: longer lines are data. @default 300 */
export const MAX_DIAGNOSTIC_CHARS = 300;

const OPENS_WITH_DIAGNOSTIC =
  /^(?:error|fatal|panic|exception|traceback|failed|failure|err!?|abort(?:ed)?)\b\s*(?:\[[^\]]*\]|\([^)]*\))?\s*[:!-]/i;
/** A diagnostic word opening a short label before its colon: `Error response from daemon: …`. */
const OPENS_WITH_LABELLED_DIAGNOSTIC = /^(?:error|fatal)\b[^:]{1,40}:\s*\S/i;
/** A runner's verdict in capitals at the start of a line: `ERROR tests/x.py::…`, `FAILED …`, `--- FAIL: TestX`. */
export const SHOUTED_VERDICT = /^(?:-{3}\s+)?(?:ERROR|FAILED|FAIL|FATAL|PANIC)\b/;
/** A verdict in capitals anywhere: `BUILD FAILED in 3s`, `tests/a.py::test_b FAILED [ 50%]`, `[ERROR] …`. */
const SHOUTED_ANYWHERE = /(?<![\w=-])(?:FAILED|FAILURE|ERROR|FATAL)(?![\w=-])/;
/**
 * An exception's name opening a line: `KeyError: 'x'`, `java.lang.IllegalStateException`, `Error:`. A type's name
 * starts with a capital; a word that ends so after a small letter (`tFoundException`) is the end of a line a
 * console wrapped, not a name.
 */
const EXCEPTION_NAME = /^(?:[\w$]+\.)*(?:[A-Z_$][\w$]*)?(?:Error|Exception|Failure|Fault)\b\s*(?::|$)/;
/** An exception named after a label: `to_frame raised: NotImplementedError: …`, `warning: DeprecationWarning: …`. */
const LABELLED_EXCEPTION = /^[^:]{1,60}:\s+(?:[\w$]+\.)*(?:[A-Z_$][\w$]*)?(?:Error|Exception|Failure|Fault)\b\s*:/;
/** An exception after a word or two: `Uncaught ReferenceError: x is not defined`. */
const PREFIXED_EXCEPTION = /^(?:[\w$.]+\s+){1,2}(?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception)\s*:/;
/** An exception named with its package anywhere in the line: `Exception in thread "main" java.lang.IllegalStateException`. */
const QUALIFIED_EXCEPTION = /\b(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception)\b/;
/** A runner's tally that counts failures or warnings: `3 errors in 0.41s`, `Tests: 3 failed, 10 passed`, `1 warning`. */
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
/** A search or a lookup that found nothing, said at the start of its answer: `No matches found for "*.toml"`, `no test files found`. */
const NOTHING_FOUND = /^no\s+(?:[\p{L}\d_.-]+\s+){0,2}(?:found|matched)\b/iu;
/** A process ended by a signal or by its own abort, said alone on its line: `Killed`, `Aborting`, `Aborted (core dumped)`. */
const ENDED_ALONE = /^(?:Killed|Aborting|Aborted)(?:\s*\(core dumped\))?\.?$/;
/** A test runner's mark of a failed test: `✕ renders list (12 ms)`, `✗ should save`, TAP's `not ok 3 - parses dates`, bun's `(fail) parser > dates`. */
export const FAILURE_MARK = /^(?:[✗✘✕×✖]\s+\p{L}|not ok\s+\d|\(fail\)\s+\S)/u;
/** What a parser or a command line says of input it refuses: `unknown option: --verbose-all`, `invalid value for --jobs: x`. */
const REFUSED_INPUT = /^(?:unknown|invalid|unexpected|unrecogni[sz]ed|unsupported|illegal)\b[^:]{0,40}:\s*\S/i;
/** A warning: `warning: unused variable`, `npm WARN deprecated …`, `DeprecationWarning: …`, `[WARN] …`. */
const WARNING = /^(?:\[?warn(?:ing)?\]?\b\s*[:!-]|[\w.@/-]{1,40}\s+WARN\b)|\b[A-Z]\w*Warning\b\s*:/i;
/**
 * A logger's warning: the level where a log line states it, in capitals after the time stamp and the thread
 * (`WARN  sync::worker: batch 61 skipped`, `[main] WARN c.a.Sync - …`), as a structured field (`level=warning`,
 * `"level":"warn"`), or klog's `W0303 11:01:44.123456`. In capitals only: a sentence may start with "Warn".
 */
const LOGGED_WARNING =
  /^(?:\[[^\]]{1,40}\]\s*)?(?:WARN|WARNING|WRN)\s+\S|\blevel=["']?warn(?:ing)?\b|"level"\s*:\s*"warn(?:ing)?"|^W\d{4} \d{2}:\d{2}:\d{2}/;
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
/**
 * A property of an object literal whose value is a call (`error: document.getElementById("error"),`,
 * `fatal: log.bind(console);`): a line of code that only names its key after a diagnostic's word.
 */
const CODE_PROPERTY = /^[\w$]+\s*:\s*[\w$]+(?:\.[\w$]+)*\(.*\)\s*[,;]$/;
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
const WARNING_FORM: LineForm = { test: (text) => /warn|^W\d/i.test(text) && (WARNING.test(text) || LOGGED_WARNING.test(text)) };

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
  if (SOURCE_CODE.test(text) || CODE_PROPERTY.test(text) || ZERO_COUNT_FORM.test(text)) return 0;
  if (OPENING_FORMS.some((form) => form.test(text))) return 3;
  if (CODE_CALL.test(text)) return 0;
  if (INNER_FORMS.some((form) => form.test(text))) return 2;
  return WARNING_FORM.test(text) ? 1 : 0;
}

/**
 * The lines of a text that read plainly as diagnostics, at most `max`, those a form opens first, in the text's order: a
 * form opens them or stands in them, or with `atLeast` 3 opens them; output that arrived JSON-escaped is read by its
 * lines. The error a user's pasted log holds where a preview leaves it out, the error in what a host put in the user's
 * turn.
 */
export function errorLinesOf(text: string, max: number, atLeast: 2 | 3 = 2): string[] {
  return detailedErrorLinesOf(text, max, atLeast).map((line) => line.text);
}

/** An error line of a text, with what it announces or the message of the body it opens (`errorSummary`'s `detailOf`). */
export interface ErrorLineWithDetail {
  /** The line, then its detail. */
  readonly text: string;
  /** What tells this error from another the same wrapper opens (`"message": "Rate limit reached for …"`). */
  readonly detail?: string;
}

/** {@link errorLinesOf}'s lines, each with its detail. */
export function detailedErrorLinesOf(text: string, max: number, atLeast: 2 | 3 = 2): ErrorLineWithDetail[] {
  const read = new Set<string>();
  const found: { line: ErrorLineWithDetail; strength: number; at: number }[] = [];
  const raw = text.split('\n').flatMap(atEscapedBreaks);
  const lines = raw.map((line) => line.trim());
  const exceptions = exceptionsRaisedIn(raw);
  lines.forEach((line, at) => {
    if (line.length === 0 || line.length > MAX_DIAGNOSTIC_CHARS || read.has(line)) return;
    // A line that announces a traceback's frames (`Traceback (most recent call last):`) is not the error: the
    // exception the frames end with is.
    if (TRACEBACK_FRAME.test(raw[at + 1] ?? '')) return;
    read.add(line);
    // A line that opens a body is read without the opening, which a line of code ends with too.
    const strength = exceptions.has(at) ? 3 : diagnosticStrength(cleanLine(line).replace(OPENS_BODY, ''));
    if (strength < atLeast) return;
    const detail = detailOf(lines, at);
    found.push({ line: detail === undefined ? { text: line } : { text: `${line} ${detail}`, detail }, strength, at });
  });
  return found
    .sort((a, b) => b.strength - a.strength || a.at - b.at)
    .slice(0, max)
    .sort((a, b) => a.at - b.at)
    .map((l) => l.line);
}

/**
 * The places of the lines Python's tracebacks in `lines` end with (`tracebackEnds`): an exception, however it is named
 * (`NotConfigured: …` reads as plainly as `ValueError: …`); and of the messages PowerShell's error records open with,
 * in whatever language (`powerShellErrorMessages`).
 */
export function exceptionsRaisedIn(lines: readonly string[]): ReadonlySet<number> {
  return new Set([...tracebackEnds(lines, cleanLine), ...powerShellErrorMessages(lines)]);
}
