/** A test runner's tally line, and whether it counts failures: what a test run came to, in the forms runners print it. */

/** A test runner's tally, in the forms runners print it: "12 passed", "Tests: 3", "Ran 26 tests", "test result: ok", "FAILED (errors=2)". */
export const TEST_COUNT = new RegExp(
  [
    String.raw`\b\d+\s+(?:tests?\s+)?(?:passed|failed|failing|passing|errors?|skipped|pending|broken|failures?)(?![\w.-])`,
    String.raw`^Tests?:\s+\d+`,
    String.raw`^Ran \d+ tests?\b`,
    String.raw`\btest result: (?:ok|FAILED)\b`,
    String.raw`^(?:OK|FAILED)\s*\((?:failures|errors|tests)=`,
  ].join('|'),
  'i',
);
/** A tally that counts failures: "1 failed", "3 failing", "FAILED (errors=2)", "test result: FAILED". */
export const TEST_FAILURES = /\b[1-9]\d*\s+(?:tests?\s+)?(?:failed|failing|errors?|failures?)(?![\w.-])|^FAILED\b|\btest result: FAILED\b/i;
/** A line that opens with a place in a file, as a linter's or a compiler's does: `docs/guide.md:41:9 error …`. */
const PLACE_FIRST = /^\S+:\d+(?::\d+)?\s/;

/**
 * True for a tally line that counts failures: `1 failed, 1 passed in 0.04s`, `FAILED (errors=21)`; not a line that
 * names a place in a file (the `12 error` of `setup.md:12 error MD041 …` counts nothing).
 */
export function isFailingTally(line: string): boolean {
  return TEST_COUNT.test(line) && TEST_FAILURES.test(line) && !PLACE_FIRST.test(line);
}
