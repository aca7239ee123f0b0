/**
 * A run whose host states no exit status (SWE-agent's observations, a tool that returns the output alone), told
 * failed by how its output ends, as the status would have said: the program died of an uncaught exception, its test
 * tally counts failures (`1 failed, 1 passed in 0.04s`), or its last line is its own error (`error: could not compile
 * \`ledger\` due to 1 previous error`, a command-line parser's `report: error: argument --since: invalid date`, a
 * compiler's `src/cart.ts(41,3): error TS2304: Cannot find name 'total'.`), or the shell says, last, that it could not
 * run a command (`bash: line 3: go: command not found`, zsh's `(eval):1: no matches found: *.log`, `/tmp/run.sh: line 9:
 * cd: out: Not a directory`). Where the host states a status, the status decides.
 */
import { isFailingTally } from './testTally';
import { endsInUncaughtException } from './uncaughtException';
import { isLocatedError } from './sourcePlace';

/** Characters read from the end of an output for its last line. @default 2000 */
const TAIL_CHARS = 2000;
/** A program's own error as its last line: `error: …`, `error[E0382]: …`, `ERROR: …`, a parser's `prog: error: …`. */
const ERROR_LINE = /^(?:[\w.-]+: )?error(?:\[[\w-]+\])?:\s+\S/i;
/** What an interactive shell says that is no complaint: a warning, and what it says as it starts without a terminal. */
const NO_COMPLAINT = String.raw`(?!warning\b|no job control\b|cannot set terminal process group\b)`;
/**
 * The shell's own complaint, which it prints only when it could not run what it was given: named by the shell (`bash:`,
 * `/bin/sh: 1:`, `zsh:`), by zsh's `(eval):1:` for a command line run through eval, or by a script's name and line
 * (`run.sh: line 9:`). A warning it prints (`bash: warning: …`) is no failure, nor what an interactive shell without
 * a terminal says as it starts (`bash: no job control in this shell`), whatever runs after it.
 */
const SHELL_COMPLAINT = new RegExp(
  [
    String.raw`^(?:(?:\/usr)?\/bin\/)?(?:ba|da|k|z)?sh(?::? ?(?:line )?\d+)?: ${NO_COMPLAINT}\S`,
    String.raw`^\(eval\):(?:[\w-]+:)?\d+: \S`,
    String.raw`^\S+: line \d+: ${NO_COMPLAINT}\S`,
  ].join('|'),
  'i',
);

/** True when an output, whose host stated no exit status, ends as a failed run's does (see the header). */
export function endsInFailure(content: string): boolean {
  const last = content
    .slice(-TAIL_CHARS)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .at(-1);
  if (last === undefined) return false;
  return (
    isFailingTally(last) || ERROR_LINE.test(last) || isLocatedError(last) || SHELL_COMPLAINT.test(last) || endsInUncaughtException(content)
  );
}
