/**
 * What a command printed, in one line for the ledger's record: its first and last meaningful
 * lines. The first says what the output is (a header, the first answer; progress messages such
 * as `Compiling 3 files` are passed over), the last how it ended (a test runner's verdict, a
 * script's result), so "ran `x` → ok" also says what `x` showed.
 */
import { isProgressLine, meaningfulLines } from './resultLines';
import { shortenEnd } from '../text/shorten';

/** Longest line of a command's output kept, in characters. @default 100 */
export const OUTPUT_LINE_MAX_CHARS = 100;

/** A line needs this many letters outside markup tags to say something: a progress meter, a table rule or `</body></html>` has fewer. @default 3 */
const MIN_LETTERS = 3;
const LETTER = /\p{L}/gu;
const MARKUP_TAG = /<[^<>]*>/g;

/** The first and last meaningful lines of a command's output, joined by "…"; undefined when it printed nothing meaningful. */
export function outputGist(content: string): string | undefined {
  const lines = meaningfulLines(content).filter((l) => (l.replace(MARKUP_TAG, '').match(LETTER)?.length ?? 0) >= MIN_LETTERS);
  if (lines.length === 0) return undefined;
  const first = oneLine(lines.find((l) => !isProgressLine(l)) ?? lines[0]);
  const last = oneLine(lines[lines.length - 1]);
  return first === last ? first : `${first} … ${last}`;
}

/** The line as it was printed, spacing and all (a column-aligned `4f1c2e9..8b0d7a1  main -> main` is found as written), cut to fit. */
function oneLine(line: string): string {
  return shortenEnd(line.slice(0, OUTPUT_LINE_MAX_CHARS * 2).trim(), OUTPUT_LINE_MAX_CHARS);
}
