/**
 * A run that stopped before it did anything, told by how its output opens when the host states no exit status (a
 * command piped into another, a host that returns the output alone): the program's first line is its own error
 * (`error: unexpected argument '--dry' found`, `Error: the daemon is not running`), or a message over the usage a
 * command-line parser prints when it refuses its arguments (`run ID required when not running interactively`, then
 * `Usage: …`). A command that asked for its usage (`--help`), or that printed files or search hits, whose lines may
 * read like anything, is not one.
 */
import { meaningfulLines } from './resultLines';

/** A program's own error as its first line: a severity label and a message (`error: …`, `Error: …`, `fatal: …`). */
const ERROR_FIRST = /^(?:error|fatal)(?:\[[\w-]+\])?:\s+\S/i;
/** The line a command-line parser opens its usage with. */
const USAGE_LINE = /^usage:\s+\S/i;
/** Lines after the first looked at for the usage. @default 4 */
const USAGE_WITHIN_LINES = 4;
/** Characters of an output read for its first lines. @default 2000 */
const HEAD_CHARS = 2000;
/** A command's request for its own usage. */
const ASKS_FOR_HELP = /(?:^|\s)(?:--help|-h|help)(?:\s|$)/;

/** True when an output opens as a refused run's does (see the header); `commands`: the command lines the call ran. */
export function opensWithComplaint(content: string, commands: readonly string[]): boolean {
  const lines = meaningfulLines(content.slice(0, HEAD_CHARS));
  if (lines.length === 0 || (!ERROR_FIRST.test(lines[0]) && refusalOverUsage(lines) === undefined)) return false;
  return !commands.some((command) => ASKS_FOR_HELP.test(command));
}

/** The first of an output's meaningful `lines` when the usage follows it closely: what the parser refused. */
export function refusalOverUsage(lines: readonly string[]): string | undefined {
  const [first, ...next] = lines.slice(0, USAGE_WITHIN_LINES + 1);
  return first !== undefined && !USAGE_LINE.test(first) && next.some((line) => USAGE_LINE.test(line)) ? first : undefined;
}
