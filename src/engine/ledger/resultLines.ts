/**
 * Reading the lines of a tool result for one-line ledger entries: which lines are read (the start
 * and, of a long result, the end), how they are cleaned, and which carry no message of their own.
 */

import { OFFLOAD_REFERENCE_LINE } from '../text/offloadReference';
import { STATE_LINE } from '../text/hostFrame';
import { withoutTerminalCodes } from '../text/terminalCodes';
import { isExitStatusLine } from './toolOutcome';

/** How far into a result to read. */
const HEAD_LINES = 60;
/** How many of the last lines of a longer result are read too (a runner's verdict, a script's answer). */
const TAIL_LINES = 30;
/** Only this many characters at the end are split into lines, however long the result. */
const TAIL_CHARS = 6000;

/** npm's header over a script's output (`> app@1.0.0 lint`); the lines after it that start with `>` echo the script's command. */
export const SCRIPT_HEADER = /^> [\w@./-]+@\d[\w.+-]* [\w:.-]+$/;

/** A line that echoes a script's command, when it follows npm's header (see {@link SCRIPT_HEADER}) or another echo. */
export const isScriptEcho = (line: string): boolean => line.startsWith('> ');

/** Wrappers, status lines and prompts that carry no message of their own. */
const NOISE_LINES: readonly RegExp[] = [
  /^Process running with session ID \d+$/,
  /^<\/?(?:returncode|output|exit_code|status|tool_use_error|error)>(?:\s*-?\d+\s*<\/returncode>)?$/i,
  /^<\/?[\w-]+>$/,
  /^Traceback \(most recent call last\):$/,
  STATE_LINE,
  // A script runner's echo of the command it runs (`$ biome check --error-on-warnings`; npm's `> app@1.0.0 lint`).
  /^\$ \S/,
  SCRIPT_HEADER,
  // curl's progress meter header, printed before the body when the agent captures stderr.
  /^%\s+Total\s+%\s+Received\b/,
  /^Dload\s+Upload\b/,
  /^[\s\p{P}\p{S}┃│─━]*$/u,
  // A section's banner, words framed and nothing else (pytest's `=== FAILURES ===`, `--- test session starts ---`): what
  // follows it says what happened, it does not. A framed figure (`=== 1 failed in 0.04s ===`) is a verdict and stays.
  /^[=_*#-]{3,} *[A-Za-z][A-Za-z ]*[A-Za-z] *[=_*#-]{3,}$/,
  OFFLOAD_REFERENCE_LINE,
];
/** The letters a pattern of {@link NOISE_LINES} can start with (`Process running`, `Traceback`, `bash-$`, `Dload`). */
const NOISE_FIRST_CHARS = 'PTbD';
/** Progress messages: what a tool was doing (`Compiling 3 files`, `Checking 107 source files ...`), not what came of it. */
const PROGRESS_VERBS = [
  'checking',
  'compiling',
  'building',
  'running',
  'generating',
  'installing',
  'downloading',
  'collecting',
  'resolving',
  'fetching',
  'analy[sz]ing',
  'testing',
  'finding',
  'loading',
  'starting',
  'waiting',
  'getting',
];
const PROGRESS_LINE = new RegExp(String.raw`^(?:${PROGRESS_VERBS.join('|')})\b|(?:\.{3}|…)\s*\)?$`, 'i');
/** Two or more literal `\n` escapes in one line. */
const ESCAPED_BREAKS = /\\n.*\\n/;
/** Decoration some tools put before their messages: box-drawing bars. */
const LEADING_DECORATION = /^[\s\u2500-\u257F]+/;
/**
 * A log line's leading time stamp: a date and a time (`2026/03/03 11:31:38`, `2026-03-03T11:31:38.123Z`,
 * `[2026-03-03 11:31:38,123]`) or a bracketed time (`[11:31:38]`). It says when, not what: the same error logged
 * twice is then one line, and a line cut to fit keeps its words rather than its stamp.
 */
const LOG_STAMP =
  /^\[?(?:\d{4}[-/.]\d{2}[-/.]\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z| ?[+-]\d{2}:?\d{2}| UTC)?|(?=\[)\[\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?\s+(?=\S)/;
/**
 * A system log's prefix (syslog, `journalctl`): the time stamp, the host and the program with its process id
 * (`Mar 03 11:01:44 web-2 sync-worker[4121]: `). It says when and who; the message is what follows.
 */
const SYSLOG_PREFIX = /^[A-Z][a-z]{2} {1,2}\d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \S+ [^\s:[]+(?:\[\d+\])?: (?=\S)/;
/** The end-of-command marker SWE-agent's shell appends to output. */
const PROCESS_DONE = /\/\/\/PROCESS-DONE:-?\d+:PROCESS-DONE\/\/\//g;

/**
 * The first lines of the result and, when it is longer, its last lines, as they are. A line
 * holding output that arrived JSON-escaped (several literal `\n`, as hooks print it) is split at
 * the escapes, unless `asPrinted` (a search's hits are lines of files, whatever they hold: a JSON record's escaped
 * breaks are the file's text).
 */
export function scannedLines(content: string, asPrinted = false): string[] {
  const head = content.split('\n', HEAD_LINES + 1);
  const lines =
    head.length <= HEAD_LINES
      ? head
      : [
          ...head.slice(0, HEAD_LINES),
          ...content
            .slice(Math.max(0, content.length - TAIL_CHARS))
            .split('\n')
            .slice(1)
            .slice(-TAIL_LINES),
        ];
  return asPrinted ? lines : lines.flatMap(atEscapedBreaks);
}

/** A line holding output that arrived JSON-escaped (several literal `\n`) as the lines it holds; any other line as is. */
export function atEscapedBreaks(line: string): string[] {
  return ESCAPED_BREAKS.test(line) ? line.split('\\n') : [line];
}

/** A line without terminal codes, wrapper tags such as `<tool_use_error>`, leading decoration and surrounding space. */
export function cleanLine(line: string): string {
  // Most lines carry neither wrapper; the replacements run only on those that may.
  let clean = withoutTerminalCodes(line);
  if (clean.includes('tool_use_error>')) clean = clean.replace(/<\/?tool_use_error>/g, '');
  if (clean.includes('PROCESS-DONE')) clean = clean.replace(PROCESS_DONE, '');
  if (DECORATION_START.test(clean)) clean = clean.replace(LEADING_DECORATION, '');
  // A time stamp starts with a digit or a bracket, a system log's with a month's name: other lines skip the patterns.
  const first = clean.charCodeAt(0);
  if (first === 0x5b || (first >= 0x30 && first <= 0x39)) clean = clean.replace(LOG_STAMP, '');
  else if (first >= 0x41 && first <= 0x5a) clean = clean.replace(SYSLOG_PREFIX, '');
  return clean.trim();
}

/** A line whose first character may open its decoration. */
const DECORATION_START = /^[\s\u2500-\u257F]/;

/**
 * A field of a harness's record whose value says there is none (`Error: (none)`, `Background PIDs: (none)`): neither
 * an error nor an outcome. A label with nothing after it announces the next line instead, and stays.
 */
const EMPTY_FIELD = /^\p{L}[\p{L}\p{N} _-]{0,30}:\s*(?:\((?:none|empty|null)\)|none|null|n\/a)$/iu;

/** True for a cleaned line that says nothing by itself: an exit status, a bare tag, a prompt, punctuation only, an empty field. */
export function isNoiseLine(line: string): boolean {
  if (EMPTY_FIELD.test(line) || isExitStatusLine(line)) return true;
  // Most lines start with a letter or digit that no noise pattern starts with: answered at once.
  if (line.length > 0 && /[A-Za-z0-9]/.test(line[0]) && !NOISE_FIRST_CHARS.includes(line[0])) return false;
  return NOISE_LINES.some((p) => p.test(line));
}

/**
 * True for a cleaned line that reports progress rather than a result. A line that states a result before it says what
 * it goes on to do (`Matched! Rewriting...`) reports the result.
 */
export function isProgressLine(line: string): boolean {
  if (!PROGRESS_LINE.test(line)) return false;
  const first = FIRST_SENTENCE.exec(line)?.[1];
  return first === undefined || PROGRESS_LINE.test(first);
}

/** A line's first sentence, when another follows it: up to the first `.`, `!` or `?` after a word and before a space. */
const FIRST_SENTENCE = /^(.*?\w[.!?])\s+\S/;

/** The scanned lines of a result, cleaned, without noise; none when the host only notes that there was no output. */
export function meaningfulLines(content: string): string[] {
  const lines = scannedLines(content).map(cleanLine);
  let echo = false;
  const kept = lines.filter((l) => {
    echo = SCRIPT_HEADER.test(l) || (echo && isScriptEcho(l));
    return !echo && !isNoiseLine(l);
  });
  return kept.length === 1 && HOST_NOTE.test(kept[0]) ? [] : kept;
}

/**
 * A line in brackets and without a figure, alone in an output: the host's note in place of an output (`(no output)`,
 * `(PowerShell completed with no output)`), not something the program printed.
 */
const HOST_NOTE = /^\([^()\d]*\)$/;

/** True when a result is only the host's note that the program printed nothing (see {@link HOST_NOTE}). */
export function isOnlyHostNote(content: string): boolean {
  const text = content.trim();
  return !text.includes('\n') && HOST_NOTE.test(text);
}
