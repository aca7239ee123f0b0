/**
 * The key under which errors are matched with the later call that fixed them: two runs of the
 * "same" command often differ only in a redirect, an output filter or a leading `cd`.
 */

/** Trailing `2>&1`, `| tail -20`, `| head -n 50`, `| cat`: how much output is shown, not what runs. */
const OUTPUT_FILTER = /\s*(?:2>&1|\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?|\|\s*cat)\s*$/;
/**
 * A `cd <dir> &&` (the directory bare or quoted), as a pattern's source: where a command runs, not what it does. Every
 * reading of a command line passes over it the same way.
 */
export const CD_PREFIX = String.raw`cd\s+(?:"[^"\n]*"|'[^'\n]*'|\S+)\s*&&\s*`;
const LEADING_CD = new RegExp(`^${CD_PREFIX}`);
/** Filters are stripped a few times at most (`… 2>&1 | tail -5`). */
const MAX_STRIPS = 4;

/**
 * A command or file path as an error subject key: whitespace collapsed, and for commands a
 * leading `cd … &&` and trailing output filters taken off.
 */
export function subjectKey(subject: string): string {
  let key = subject.trim().replace(/\s+/g, ' ').replace(LEADING_CD, '');
  for (let i = 0; i < MAX_STRIPS; i++) {
    const stripped = key.replace(OUTPUT_FILTER, '');
    if (stripped === key) break;
    key = stripped;
  }
  return key;
}
