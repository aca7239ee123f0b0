/**
 * The error lines of the part of a long text that a shortened form leaves out (a pasted log's middle, a huge first
 * request's), shown between its start and its end: the error is what the rest of a log is there for.
 */
import { errorLinesOf } from './diagnosticForms';

/** Error lines shown from between a text's start and its end, beyond its limits. @default 3 */
export const MAX_LEFT_OUT_ERROR_LINES = 3;
/** What stands between two of them, and after the last: lines were left out there too. */
const GAP = '[…]';

/** The lines of `leftOut` that read as errors, at most {@link MAX_LEFT_OUT_ERROR_LINES}. */
export function leftOutErrorLines(leftOut: string): string[] {
  return errorLinesOf(leftOut, MAX_LEFT_OUT_ERROR_LINES);
}

/** `start`, the line that says what was left out, the `errors` of that part each after a gap, and `end`. */
export function withLeftOutErrors(start: string, leftOutLine: string, errors: readonly string[], end: string): string {
  return [
    start,
    leftOutLine,
    ...errors.flatMap((line, i) => (i === 0 ? [line] : [GAP, line])),
    ...(errors.length > 0 ? [GAP] : []),
    end,
  ].join('\n');
}
