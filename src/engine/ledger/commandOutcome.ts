/**
 * How a shell command ended (`toolOutcome`), with what its program's exit status means: grep and the searches made
 * after it (ripgrep, ag, ack, `git grep`) exit with 1 when no line matched and with 2 on an error (POSIX), so a search
 * that exits with 1 having printed nothing found nothing, which is an answer, not a failure to put among the errors. A
 * comparison (diff, cmp, `git diff --no-index`) that exits with 1 found a difference, also an answer (see
 * `comparePrograms`). A run whose output opens with its program's refusal failed, whatever the shell said of the
 * pipeline it ended (see `openingComplaint`).
 */
import type { ToolResultBlock } from '../types';
import { meaningfulLines } from './resultLines';
import { endsInComparison } from './comparePrograms';
import { endsInSearch } from './searchPrograms';
import { opensWithComplaint } from './openingComplaint';
import { printedBesides } from './errorSummary';
import { withoutHostFrame } from '../text/hostFrame';
import { isExitStatusLine, toolOutcome, type ToolOutcome } from './toolOutcome';

/** What some hosts print for an output that is empty: a note in brackets, a label with nothing after it, a count of 0. */
const EMPTY_OUTPUT = /^\([^()]*\)$|^[\w ]+:$|^(?:\S+:)?0$/;
/** A host's word before the status line of a failed command (`Error: Exit code 1`). */
const ERROR_WORD = /^Error:\s*/i;

/** Answers per result, which answers one call: the tool record and the recall steps read the same results, aging again. */
const known = new WeakMap<ToolResultBlock, ToolOutcome>();

/** How the commands of one call ended: a search that found nothing and a comparison that found a difference are ok (see the header). */
export function commandOutcome(result: ToolResultBlock, commands: readonly string[]): ToolOutcome {
  let outcome = known.get(result);
  if (!outcome) known.set(result, (outcome = readOutcome(result, commands)));
  return outcome;
}

function readOutcome(result: ToolResultBlock, commands: readonly string[]): ToolOutcome {
  const outcome = toolOutcome(result, true);
  const refused = outcome.ok && outcome.exitCode === undefined && printedBesides(commands) === 'own';
  if (refused && opensWithComplaint(withoutHostFrame(result.content), commands)) return { ok: false };
  if (outcome.ok || !(outcome.exitCode === 1 || (outcome.exitCode === undefined && result.isError))) return outcome;
  const answered = (endsInSearch(commands) && printedNothing(result.content)) || (outcome.exitCode === 1 && endsInComparison(commands));
  return answered ? { ...outcome, ok: true } : outcome;
}

/**
 * True when the output holds nothing but the host's status line and its notes that there was no output, or when the
 * host's record of the run (`Command: …`, `Output: (empty)`, `Error: (none)`, `Exit Code: 1`) holds nothing printed.
 */
function printedNothing(content: string): boolean {
  return meaningfulLines(withoutHostFrame(content)).every(
    (line) => EMPTY_OUTPUT.test(line) || isExitStatusLine(line.replace(ERROR_WORD, '')),
  );
}
