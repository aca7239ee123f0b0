/**
 * The programs that compare two inputs, read in a command line: `diff` and `cmp` exit with 1 when the inputs differ and
 * above 1 on trouble (POSIX), as `git diff` does with `--exit-code`, which `--no-index` and `--quiet` imply. A
 * comparison that exits with 1 has answered, whatever it printed: the difference is what was asked for.
 */
import { lastCommandWords, programWords } from './shellWords';

/** A program that compares files and says "they differ" with exit status 1. */
const COMPARE_PROGRAM = /^(?:[\w./-]*\/)?(?:diff|cmp|colordiff)$/;
/** The options of `git diff` that make it exit with 1 when there are differences. */
const GIT_DIFF_EXIT_CODE = new Set(['--no-index', '--exit-code', '--quiet']);

/** True when the last command of the last line is a comparison: the call's exit status is the comparison's. */
export function endsInComparison(commands: readonly string[]): boolean {
  const [program = '', subcommand, ...options] = programWords(lastCommandWords(commands.at(-1) ?? ''));
  if (COMPARE_PROGRAM.test(program)) return true;
  return program === 'git' && subcommand === 'diff' && options.some((option) => GIT_DIFF_EXIT_CODE.has(option));
}
