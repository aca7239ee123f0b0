/**
 * The meaningful lines at the two ends of a tool's output: where it says what it is doing, and how
 * it ended. Lines are found from each end, never by splitting the whole output, so a long output
 * costs no more than a short one.
 */
import { cleanLine, isNoiseLine } from '../ledger/resultLines';

/** The lines at each end, cleaned, and whether they are all of the output. */
export interface OutputEdges {
  readonly head: string[];
  readonly tail: string[];
  readonly whole: boolean;
}

/**
 * At most `headLines` meaningful lines from the top and `tailLines` from the bottom of `content`,
 * each cut to `maxLineChars` before it is cleaned.
 */
export function outputEdges(content: string, headLines: number, tailLines: number, maxLineChars: number): OutputEdges {
  const push = (line: string, into: string[]) => {
    const clean = cleanLine(line.length > maxLineChars ? line.slice(0, maxLineChars) : line);
    if (clean.length > 0 && !isNoiseLine(clean)) into.push(clean);
  };
  const head: string[] = [];
  let at = 0;
  while (at <= content.length && head.length < headLines) {
    const next = content.indexOf('\n', at);
    const end = next < 0 ? content.length : next;
    push(content.slice(at, end), head);
    at = end + 1;
  }
  if (at > content.length) return { head, tail: [], whole: true };
  const tail: string[] = [];
  let stop = content.length;
  while (stop > at && tail.length < tailLines) {
    const start = content.lastIndexOf('\n', stop - 1) + 1;
    push(content.slice(Math.max(start, at), stop), tail);
    stop = start - 1;
  }
  return { head, tail: tail.reverse(), whole: stop <= at };
}
