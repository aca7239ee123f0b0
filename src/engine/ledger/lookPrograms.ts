/**
 * A command line that only looks: each of its commands prints what is there (a listing, a search, a file's lines, the
 * repository's state) and changes nothing. An agent with only a shell looks around this way, so a call running such a
 * line is a look, as a read tool's call is. Read from the words alone; a redirect, an in-place edit, a program not
 * listed or an option that acts (`find -delete`) makes the line a command like any other.
 */
import { isShellOperator, programWords, shellWords } from './shellWords';

/** Programs that only print, whatever their options, except those in `ACTING_OPTIONS`. */
const PRINTERS = new Set([
  'ls',
  'find',
  'tree',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'cat',
  'head',
  'tail',
  'nl',
  'wc',
  'sort',
  'uniq',
  'cut',
  'sed',
  'pwd',
  'file',
  'stat',
  'which',
  'type',
  'du',
  'diff',
  'cd',
]);
/** Options that make a printer act on files: `find -delete`, `find -exec rm …`, `sed -i`, `sort -o`. */
const ACTING_OPTIONS: Readonly<Record<string, RegExp>> = {
  find: /^-(?:delete|exec|execdir|ok|okdir|fprint\w*|fls)$/,
  sed: /^(?:-[a-zA-Z]*i\S*|--in-place\S*)$/,
  sort: /^(?:-o\S*|--output\S*)$/,
};
/** `git` subcommands that print the repository's state and history. */
const GIT_LOOKS = new Set(['status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'rev-parse', 'shortlog', 'describe']);
/** Writing output to a file; sending errors away (`2>/dev/null`, `2>&1`) changes nothing. */
const REDIRECT = />/;
const HARMLESS_REDIRECT = /^2>(?:&1|\/dev\/null)?$|^\/dev\/null$/;

/** True when every command of every line in `commands` only prints what is there. */
export function onlyLooks(commands: readonly string[]): boolean {
  return commands.length > 0 && commands.every(lineOnlyLooks);
}

function lineOnlyLooks(line: string): boolean {
  const words = shellWords(line);
  if (words.length === 0) return false;
  let command: string[] = [];
  for (const word of [...words, ';']) {
    if (!isShellOperator(word)) {
      command.push(word);
      continue;
    }
    if (command.length > 0 && !commandOnlyLooks(command)) return false;
    command = [];
  }
  return true;
}

function commandOnlyLooks(words: readonly string[]): boolean {
  if (words.some((word) => !isQuoted(word) && REDIRECT.test(word) && !HARMLESS_REDIRECT.test(word))) return false;
  const [program = '', ...args] = programWords(words.filter((word) => !HARMLESS_REDIRECT.test(word)));
  if (program === 'git') return GIT_LOOKS.has(args.find((arg) => !arg.startsWith('-')) ?? '');
  if (!PRINTERS.has(program)) return false;
  const acting = ACTING_OPTIONS[program];
  return acting === undefined || !args.some((arg) => acting.test(arg));
}

function isQuoted(word: string): boolean {
  return word.startsWith("'") || word.startsWith('"');
}
