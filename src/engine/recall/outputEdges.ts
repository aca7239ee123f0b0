/**
 * The meaningful lines at the two ends of a tool's output: where it says what it is doing, and how
 * it ended. Lines are found from each end, never by splitting the whole output, so a long output
 * costs no more than a short one. As in the ledger's reading of a result (`meaningfulLines`), a script
 * runner's echo of the command under its header is not a line the output said.
 */
import { cleanLine, isNoiseLine, isScriptEcho, SCRIPT_HEADER } from '../ledger/resultLines';

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
  const cleaned = (line: string) => cleanLine(line.length > maxLineChars ? line.slice(0, maxLineChars) : line);
  const kept = (clean: string) => clean.length > 0 && !isNoiseLine(clean);
  const head: string[] = [];
  let at = 0;
  let echo = false;
  while (at <= content.length && head.length < headLines) {
    const next = content.indexOf('\n', at);
    const end = next < 0 ? content.length : next;
    const clean = cleaned(content.slice(at, end));
    echo = SCRIPT_HEADER.test(clean) || (echo && isScriptEcho(clean));
    if (!echo && kept(clean)) head.push(clean);
    at = end + 1;
  }
  if (at > content.length) return { head, tail: [], whole: true };
  // Read upwards, an echo is known for one only when its header comes: the echoes just taken are dropped then.
  const tail: string[] = [];
  let echoesTaken = 0;
  let stop = content.length;
  while (stop > at && tail.length < tailLines) {
    const start = content.lastIndexOf('\n', stop - 1) + 1;
    const clean = cleaned(content.slice(Math.max(start, at), stop));
    if (SCRIPT_HEADER.test(clean)) {
      tail.splice(tail.length - echoesTaken, echoesTaken);
      echoesTaken = 0;
    } else if (kept(clean)) {
      tail.push(clean);
      echoesTaken = isScriptEcho(clean) ? echoesTaken + 1 : 0;
    }
    stop = start - 1;
  }
  return { head, tail: tail.reverse(), whole: stop <= at };
}
