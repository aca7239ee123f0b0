/**
 * One line that says what went wrong in a failed tool result, short enough for the ledger.
 */
import { shorten } from './shorten';

/** Longest error summary kept in the ledger, in characters. */
export const ERROR_SUMMARY_MAX_CHARS = 160;
/** How far into a result to look for a line that names the error. */
const SCAN_LINES = 60;

/** Wrappers and status lines that carry no message of their own. */
const NOISE_LINES: readonly RegExp[] = [
  /^Exit code:?\s*-?\d+$/i,
  /^<\/?(?:returncode|output|exit_code|status|tool_use_error|error)>(?:\s*-?\d+\s*<\/returncode>)?$/i,
  /^Traceback \(most recent call last\):$/,
  /^[\s\p{P}\p{S}┃│─━]*$/u,
];
/** Words that mark the line naming the error (a traceback's exception, `fatal:`, `make: *** … Error 2`). */
const ERROR_WORDS = /\b(?:error|fatal|fail(?:ed|ure|s)?|exception|cannot|can't|not found|no such|denied|does not exist|invalid|panic|rejected|refused|timed? ?out)\b/i;

/**
 * The first line that names the error, or else the first meaningful line, with wrapper tags such
 * as `<tool_use_error>` taken off and cut to `ERROR_SUMMARY_MAX_CHARS`.
 */
export function errorSummary(content: string): string {
  const lines = content
    .split('\n', SCAN_LINES)
    .map((l) => l.replace(/<\/?tool_use_error>/g, '').trim())
    .filter((l) => !NOISE_LINES.some((p) => p.test(l)));
  const line = lines.find((l) => ERROR_WORDS.test(l)) ?? lines[0] ?? '(no error text)';
  return shorten(line.slice(0, ERROR_SUMMARY_MAX_CHARS * 2).replace(/\s+/g, ' '), ERROR_SUMMARY_MAX_CHARS);
}
