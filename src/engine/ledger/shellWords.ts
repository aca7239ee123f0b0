/**
 * A shell command line read as words: each word quoted or bare, and the operators that separate its commands
 * (`&&`, `||`, `;`, `|`, a line break). Enough to tell which program a command runs and what it is given; quotes
 * stay on the words, so a pattern's `\|` or a quoted `;` is no operator.
 */

const WORD = /'[^']*'|"(?:\\.|[^"\\])*"|&&|\|\||[;|\n]|[^\s'";|&]+/g;
const OPERATORS: ReadonlySet<string> = new Set(['&&', '||', ';', '|', '\n']);

/** The words and operators of `line`, in order. */
export function shellWords(line: string): string[] {
  return line.match(WORD) ?? [];
}

/** True when `word` separates two commands. */
export function isShellOperator(word: string): boolean {
  return OPERATORS.has(word);
}

/** A variable set for one command (`LC_ALL=C grep …`): not the program. */
const ASSIGNMENT = /^\w+=\S*$/;

/** A command's words from its program on: past the variables set for it and `sudo`. */
export function programWords(words: readonly string[]): readonly string[] {
  let at = 0;
  while (at < words.length && (ASSIGNMENT.test(words[at]) || words[at] === 'sudo')) at++;
  return words.slice(at);
}

/** The words of the last command of `line`, after its last operator. */
export function lastCommandWords(line: string): string[] {
  const words = shellWords(line);
  let from = words.length;
  while (from > 0 && !isShellOperator(words[from - 1])) from--;
  return words.slice(from);
}

/** True when the shell replaces part of `word` before using it (a variable, a command's output): not as written. */
export function expandsInShell(word: string): boolean {
  return !word.startsWith("'") && /[$`]/.test(word);
}
