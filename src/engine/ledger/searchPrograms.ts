/**
 * The programs that search files for lines (grep and those made after it: ripgrep, ag, ack, `git grep`, findstr), read in a
 * command line: what their exit status means, and which output is their hits, the lines of the files they matched.
 */
import { isShellOperator, lastCommandWords, programWords, shellWords } from './shellWords';

/**
 * A program that searches for lines and says "none matched" with exit status 1, as the first words of a command
 * (Windows' findstr does as grep does).
 */
const SEARCH_PROGRAM = /^(?:[\w./-]*\/)?(?:[ef]?grep|zgrep|rg|ag|ack|findstr(?:\.exe)?)$/i;

/** True when the last command of the last line is a search program: the call's exit status is the search's. */
export function endsInSearch(commands: readonly string[]): boolean {
  return runsSearch(lastCommandWords(commands.at(-1) ?? ''));
}

/**
 * True when what the commands printed last comes from a search: a search program runs in the last pipeline, alone or
 * with what trims its hits (`grep -rn retry src | head -20`).
 */
export function printsSearchHits(commands: readonly string[]): boolean {
  const words = shellWords(commands.at(-1) ?? '');
  let end = words.length;
  while (end > 0) {
    let start = end;
    while (start > 0 && !isShellOperator(words[start - 1])) start--;
    if (runsSearch(words.slice(start, end))) return true;
    // Only a pipe hands this command's output on to the last one.
    if (start === 0 || words[start - 1] !== '|') return false;
    end = start - 1;
  }
  return false;
}

/** True when the command's program, past the variables set for it and `sudo`, is a search. */
function runsSearch(words: readonly string[]): boolean {
  const [program = '', subcommand] = programWords(words);
  return SEARCH_PROGRAM.test(program) || (program === 'git' && subcommand === 'grep');
}

/**
 * A line a search printed of a file it matched, after where it stands: `src/a.ts:12:…`, a context line
 * `src/a.ts-12-…`, `12:…` for a single file or under the file's name.
 */
const SEARCH_HIT = /^(?:(?:[A-Za-z]:)?[^\s:]+[:-])?\d+[:-]/;

/** True for a line of a search's output that is a file's line where it matched, or beside it. */
export function isSearchHit(line: string): boolean {
  return SEARCH_HIT.test(line);
}
