/**
 * One line that says what went wrong in a failed tool result, short enough for the ledger. The line is chosen in this
 * order: the exception a Python traceback ends with; the first line that starts by saying it is an error (`error: …`,
 * `fatal: …`, `TypeError: …`); the first line that refuses its arguments over the usage it prints; a runner's or a
 * linter's mark of what failed (`× …`); the first line that names an error anywhere; the program's last line before its
 * failure status; the first diagnostic a linter or compiler prints (a severity tag, a warning, a `file:line` location);
 * the first line that is not a progress message; the first line at all.
 * Runners print their progress first and their verdict last, so the end of a long result is read
 * as well as its start. A verdict that names only what failed (`--- FAIL: TestWindow (0.00s)`,
 * `FAIL\tgithub.com/acme/app/internal/parser\t0.06s`) gives way to the message at a source location that says
 * why (`parser_test.go:22: got 6 windows, want 7`), when the result holds one.
 */
import { cleanLine, isNoiseLine, isProgressLine, scannedLines } from './resultLines';
import { isLocatedError, isLocatedMessage, SOURCE_PLACE } from './sourcePlace';
import { onOneLine, shortenEnd } from '../text/shorten';
import { keepingCause } from '../text/errorCause';
import { withoutTerminalCodes } from '../text/terminalCodes';
import { exitCodeOfLine, isFailureStatusLine } from './toolOutcome';
import { tracebackEnds } from './uncaughtException';
import { powerShellErrorMessages, powerShellMessage } from './powerShellErrors';
import { isSearchHit, printsSearchHits } from './searchPrograms';
import { isPrinterComplaint, onlyListsFiles, onlyPrintsFiles } from './shellReads';
import { withoutHostFrame } from '../text/hostFrame';
import { withErrorObjectRead } from '../text/errorObject';
import { refusalOverUsage } from './openingComplaint';
import { FAILURE_MARK } from './diagnosticForms';

/**
 * Longest error summary kept in the ledger, in characters: as long as a fact's line (`MAX_FACT_TEXT_CHARS`), so the
 * ledger never shows an error cut shorter than the fact that it then stands for among the earlier lines. At 160 a
 * compiler's line lost the type it named (`… from type 'CellPaletteOp…`); measured at half each session's input, 240
 * kept one more error on the tuning split and one more on validation, at the same priced input.
 * @default 240
 */
export const ERROR_SUMMARY_MAX_CHARS = 240;
/** Longest error line read, in characters: a longer one is data, and a fact cuts it to its own length anyway. */
const ERROR_LINE_MAX_CHARS = 2 * ERROR_SUMMARY_MAX_CHARS;
/** Words that mark the line naming the error (a traceback's exception, `fatal:`, `make: *** … Error 2`). */
const ERROR_TERMS = [
  'errors?',
  'fatal',
  'fail(?:ed|ure|s)?',
  'exception',
  'cannot',
  "can't",
  'not found',
  'no such',
  'denied',
  'does not exist',
  'invalid',
  'panic',
  'rejected',
  'refused',
  'timed? ?out',
  'unknown',
  'unexpected',
  'unrecogni[sz]ed',
];
/**
 * One of {@link ERROR_TERMS} or an exception's name, standing as a word: inside a name or a path (`build-error.log`,
 * `error_handler.py`, `src/errors/`) it names a file or a symbol, which a listing or a file's lines print whatever happened.
 */
const ERROR_WORDS = new RegExp(String.raw`(?<![\w./\\-])(?:${ERROR_TERMS.join('|')}|[A-Z]\w*(?:Error|Exception))(?![\w/\\-]|\.\w)`, 'i');
/** Lines a linter or compiler prints per finding: `[W] …`, `E501 …`, `warning: …`, `src/a.ts:12:5`. */
const DIAGNOSTIC_LINES: readonly RegExp[] = [/^\[[A-Z]\]\s/, /^[A-Z]{1,3}\d{3,4}\b/, /^(?:warning|warn|note)\b:?/i, SOURCE_PLACE];
/**
 * A line that starts by saying it is an error: a severity label (`error: …`, `fatal: …`, `FAIL: …`, `ERROR [x] …`) or an
 * exception's name, with its module or not (`TypeError: …`, `sqlalchemy.exc.OperationalError: …`). A line that only
 * holds an error word (a log line of a test that checks a failure, `[Limiter] task 2 failed`) says less.
 */
const ERROR_LABEL = /^(?:(?:error|fatal|panic|fail(?:ed|ure)?)\b(?:\[[^\]]*\])?[:\s]|(?:[\w$]+\.)*[A-Z]\w*(?:Error|Exception)\b:)/i;
/**
 * A verdict that says only that something failed and what: a runner's status word in capitals, framed or not, then at
 * most a name or a path and a duration or a bracketed status (`--- FAIL: TestWindow (0.00s)`, `FAIL src/sum.test.js`,
 * `FAIL\tgithub.com/acme/app [build failed]`, `=== FAILURES ===`). It says nothing of why.
 */
const BARE_VERDICT =
  /^(?:[-=*]{2,}\s*)?(?:FAIL(?:ED|URES?)?|ERRORS?)\b:?(?:\s+[\w./@:\\[\]-]+)?(?:\s+\(?\d+(?:\.\d+)?\s*m?s\)?|\s+\[[\w ]+\])?(?:\s*[-=*]{2,})?$/;
/** A line with a letter in it: a line of figures alone (`000`, `404 404`) names no error. */
const HAS_LETTER = /\p{L}/u;

/**
 * What a failed call printed besides its program's own complaint: nothing (`own`), a search's hits, whatever they say
 * (`searchHits`), or the lines or names of files it printed (`fileLines`: `cat a.env b.env 2>/dev/null` or
 * `ls -d a b 2>/dev/null` that found one of two). Only the program's own words name the error; lines of files are never it.
 */
export type PrintedBesides = 'own' | 'searchHits' | 'fileLines';

/** What else a failed call that ran these command lines printed. */
export function printedBesides(commands: readonly string[]): PrintedBesides {
  return printsSearchHits(commands) ? 'searchHits' : onlyPrintsFiles(commands) || onlyListsFiles(commands) ? 'fileLines' : 'own';
}

/**
 * The line that best names the error (see the module comment), with leading decoration taken off and a wrapper
 * (`<tool_use_error>`) kept as the tool wrote it (see {@link errorAsWritten}), cut to `ERROR_SUMMARY_MAX_CHARS`.
 */
export function errorSummary(content: string, printed: PrintedBesides = 'own'): string {
  const line = errorAsWritten(content, printed);
  return keepingCause(line, ERROR_SUMMARY_MAX_CHARS)?.text ?? shortenEnd(line, ERROR_SUMMARY_MAX_CHARS);
}

/**
 * The error as the tool wrote it, which an error fact quotes and the tool record shows alike: its best line
 * ({@link errorLine}), wrapper and all when that is its first line (`<tool_use_error>No file at that path.</tool_use_error>`,
 * `<tool_use_error>File has been unexpectedly modified.` over what the tool could not match). `printed`: what else the
 * output holds (see {@link PrintedBesides}).
 */
export function errorAsWritten(content: string, printed: PrintedBesides = 'own'): string {
  const best = errorLine(content, printed);
  // Its first line is read from the output's start alone: an output may be megabytes long, and a longer line is no summary.
  const whole = withoutTerminalCodes(content.slice(0, FIRST_LINE_READ_CHARS)).trim();
  const end = whole.indexOf('\n');
  const first = (end < 0 ? whole : whole.slice(0, end)).trim();
  return first !== best && first.length <= ERROR_SUMMARY_MAX_CHARS && cleanLine(first) === best ? first : best;
}

/** Characters of an output read for its first line as written: far more than a summary's length and what precedes it. @default 4096 */
const FIRST_LINE_READ_CHARS = 4096;

/**
 * The line that best names the error, on one line and without its decoration, before anything cuts it: what
 * {@link errorAsWritten} quotes, as the tool wrote it where it can. A fact cuts it at its own length and marks the cut,
 * so a name cut in two is never shown as if it were the whole name.
 */
export function errorLine(content: string, printed: PrintedBesides = 'own'): string {
  const searched = printed === 'searchHits';
  const raw = scannedLines(withoutHostFrame(content), searched);
  const cleaned = raw.map(cleanLine);
  const printersOwn = printed === 'fileLines' ? printersComplaint(cleaned) : undefined;
  if (printersOwn !== undefined) return printersOwn;
  // A runner's closing status (`error: script "lint" exited with code 1`) says that it failed, not what went wrong.
  const cut = searched ? cutAndFragments(cleaned) : undefined;
  const lines = cleaned.filter((l, i) => !isNoiseLine(l) && !isFailureStatusLine(l) && !(searched && (isSearchHit(l) || cut?.has(i))));
  const pick = (test: (line: string) => boolean) => {
    const at = lines.findIndex(test);
    return at < 0 ? undefined : withDetail(lines, at);
  };
  const line =
    (searched ? undefined : raisedException(raw)) ??
    // A compiler's located error says what went wrong where a wrapper's failure after it (`Error: Command failed: npm run compile`)
    // says only which command did.
    pick((l) => (ERROR_LABEL.test(l) && !isProgressLine(l)) || isLocatedError(l)) ??
    // The usage under a parser's refusal holds error words of its own (`--exit-status  Exit with non-zero status if run failed`).
    refusalOverUsage(lines) ??
    // A runner's or a linter's mark of what failed (`× Wrap this branch in braces.`) over its tally (`Found 3 errors.`).
    pick((l) => FAILURE_MARK.test(l)) ??
    pick((l) => ERROR_WORDS.test(l) && !isProgressLine(l)) ??
    lastWordBeforeStatus(cleaned) ??
    DIAGNOSTIC_LINES.map((p) => pick((l) => p.test(l))).find((l) => l !== undefined) ??
    pick((l) => !isProgressLine(l) && HAS_LETTER.test(l)) ??
    // A program that printed nothing but its failure status (`error: exit status 1`), or figures (a status code, a
    // count) beside the host's exit status, has said that much: the status names how it failed, a bare `000` nothing.
    cleaned.find(isFailureStatusLine) ??
    exitStatusWords(cleaned) ??
    lines[0] ??
    '(no error text)';
  const why = BARE_VERDICT.test(line) ? lines.find(isLocatedMessage) : undefined;
  // Spacing inside the line stays as printed (pytest's `E       assert 3 == 2`, a column-aligned table), so the line is
  // found as written; only what would break it onto more lines becomes a space.
  return onOneLine(withErrorObjectRead(why ?? line).slice(0, ERROR_LINE_MAX_CHARS));
}

/**
 * The line of a text that names an error in so many words, or undefined: an exception a traceback ends with, a line that
 * says it is an error or gives a source place, a failure mark, a line with an error's word (`Cannot exit with unstaged
 * changes.`). Unlike {@link errorLine} it falls back on no other line: it reads words that are an error only where they
 * say so, as a host's that sent the agent back to work.
 */
export function namedErrorLine(content: string): string | undefined {
  const raw = scannedLines(withoutHostFrame(content), false);
  const lines = raw.map(cleanLine).filter((l) => !isNoiseLine(l) && !isFailureStatusLine(l) && !isProgressLine(l));
  const at = [
    (l: string) => ERROR_LABEL.test(l) || isLocatedError(l),
    (l: string) => FAILURE_MARK.test(l),
    (l: string) => ERROR_WORDS.test(l),
  ]
    .map((test) => lines.findIndex(test))
    .find((i) => i >= 0);
  const line = raisedException(raw) ?? (at === undefined ? undefined : withDetail(lines, at));
  return line === undefined ? undefined : onOneLine(withErrorObjectRead(line).slice(0, ERROR_LINE_MAX_CHARS));
}

/**
 * The line a program printed last before it said that it failed (`lease ledger-7 held by another worker` over
 * Go's `exit status 1`): its last word before giving up, when no line names an error in so many words.
 */
function lastWordBeforeStatus(cleaned: readonly string[]): string | undefined {
  const status = cleaned.findIndex(isFailureStatusLine);
  for (let i = status - 1; i >= 0; i--) {
    const line = cleaned[i];
    if (!isNoiseLine(line) && HAS_LETTER.test(line) && !isProgressLine(line)) return onOneLine(line.slice(0, ERROR_LINE_MAX_CHARS));
  }
  return undefined;
}

/**
 * A host's note that it cut an output there (`... [8120 characters truncated] ...`, `[... omitted 120 of 500 lines ...]`):
 * the line after it starts in the middle of a line the program printed.
 */
const CUT_NOTICE = new RegExp(
  [
    String.raw`\b\d[\d,]*\s+(?:characters?|chars|lines?|bytes|tokens)\s+(?:truncated|omitted|elided|hidden|removed)\b`,
    String.raw`\b(?:truncated|omitted|elided)\s+\d[\d,]*(?:\s+of\s+\d[\d,]*)?\s+(?:characters?|chars|lines?|bytes|tokens)\b`,
  ].join('|'),
  'i',
);

/**
 * The places of a host's cut notices in a search's output and of the lines on either side: the hit the cut ran through
 * lost its end before the notice and its start after it, so neither part starts with where it stands, and whatever
 * they hold is still the file's.
 */
function cutAndFragments(lines: readonly string[]): Set<number> {
  const at = new Set<number>();
  lines.forEach((line, i) => {
    if (!CUT_NOTICE.test(line)) return;
    at.add(i);
    let before = i - 1;
    while (before >= 0 && lines[before].length === 0) before--;
    const after = lines.findIndex((l, j) => j > i && l.length > 0);
    if (before >= 0) at.add(before);
    if (after >= 0) at.add(after);
  });
  return at;
}

/**
 * The error of a call that only printed files: the line in which a printer names itself (`cat: b.env: Permission
 * denied`), else the exit status; the files' lines are what it printed, whatever they say (`build-error.log`,
 * `throw new Error(…)`). Undefined when the output holds neither: nothing says the program ran (a host that refused
 * the command says so in its own words).
 */
function printersComplaint(lines: readonly string[]): string | undefined {
  const complaint = lines.find(isPrinterComplaint) ?? exitStatusWords(lines);
  return complaint === undefined ? undefined : onOneLine(complaint.slice(0, ERROR_LINE_MAX_CHARS));
}

/** The host's exit status in plain words, whatever form the host wrote it in (`Exit code: 7`, `<returncode>7</returncode>`). */
function exitStatusWords(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const code = exitCodeOfLine(line);
    if (code !== undefined && code !== 0) return `Exit code ${code}`;
  }
  return undefined;
}

/**
 * The line, and the next one when the line only announces it (`Pre-commit validation failed:`), or the message of the
 * error body it opens (`request failed - b'[{` over an API's JSON, whose `"message": "Quota exceeded for …"` says why).
 */
function withDetail(lines: readonly string[], at: number): string {
  const detail = detailOf(lines, at);
  return detail === undefined ? lines[at] : `${lines[at]} ${detail}`;
}

/** What {@link withDetail} puts after the line: the line it announces, or the message of the body it opens. */
export function detailOf(lines: readonly string[], at: number): string | undefined {
  const line = lines[at];
  if (OPENS_BODY.test(line)) {
    const said = lines.slice(at + 1, at + 1 + MAX_BODY_LINES).find((l) => WORDED_VALUE.test(l));
    if (said !== undefined) return said.trim().replace(/,$/, '');
  }
  return line.endsWith(':') && at + 1 < lines.length ? lines[at + 1] : undefined;
}

/** A line that ends by opening a structured body (`{`, `[{`, `b'[{`): what the error says is inside it. */
export const OPENS_BODY = /[[{]['"]?\s*$/;
/** Lines of such a body read for its message. @default 20 */
const MAX_BODY_LINES = 20;
/** A field whose value is words, not a code (`"message": "Rate limit exceeded for …"`, not `"status": "RESOURCE_EXHAUSTED"`). */
const WORDED_VALUE = /^\s*"[^"]+"\s*:\s*"[^"]*\S\s+\S[^"]*\s+\S[^"]*"/;

/** The exception the last traceback ends with (`tracebackEnds`), or the message of PowerShell's last error record. */
function raisedException(lines: readonly string[]): string | undefined {
  const last = Math.max(-1, ...tracebackEnds(lines, cleanLine), ...powerShellErrorMessages(lines));
  return last < 0 ? undefined : cleanLine(powerShellMessage(lines[last]));
}
