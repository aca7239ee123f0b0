/**
 * Files a command line edits in place with `sed -i` (`sed -i 's/GRACE = 0/GRACE = 2/' src/due.py`): how an agent with
 * only a shell edits a file it does not write whole. Read from the command's words alone; the command stays a command.
 */
import { expandsInShell, isShellOperator, shellWords } from './shellWords';

/** `-i`, `-i.bak`, `--in-place`, `--in-place=.bak`, or `-i` among other single-letter options (`-Ei`). */
const IN_PLACE = /^(?:-[A-Za-z]*i\S*|--in-place(?:=\S*)?)$/;
/** Options of `sed` whose value is the next word. */
const VALUED = new Set(['-e', '-f', '--expression', '--file', '-l', '--line-length']);
/** A quoted empty word: `''` or `""`. */
const EMPTY_WORD = /^(?:''|"")$/;
/** Characters of a command read for in-place edits. @default 20000 */
const IN_PLACE_CHARS = 20_000;

/** The files `command` edits with `sed -i`, each once, in order. */
export function inPlaceEdits(command: string): string[] {
  if (!command.includes('sed')) return [];
  const words = shellWords(command.slice(0, IN_PLACE_CHARS));
  const files: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'sed' || (i > 0 && !isShellOperator(words[i - 1]) && !/^(?:sudo|command|env)$/.test(words[i - 1]))) continue;
    let end = i + 1;
    while (end < words.length && !isShellOperator(words[end])) end++;
    files.push(...sedFiles(words.slice(i + 1, end)));
    i = end;
  }
  return [...new Set(files)];
}

/** The files of one `sed` call's arguments when it edits in place: the words after its script and options. */
function sedFiles(args: readonly string[]): string[] {
  if (!args.some((a) => IN_PLACE.test(a))) return [];
  const operands: string[] = [];
  let scriptGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    // BSD and macOS sed take the backup suffix as the next word, empty for none: `sed -i '' 's/a/b/' f`.
    if (IN_PLACE.test(arg) && EMPTY_WORD.test(args[i + 1] ?? '')) i++;
    else if (VALUED.has(arg)) {
      if (arg === '-e' || arg === '--expression' || arg === '-f' || arg === '--file') scriptGiven = true;
      i++;
    } else if (arg.startsWith('-') && arg.length > 1) continue;
    // A file named by a variable (`"$f"`) is no name the command line says; it still takes an operand's place.
    else operands.push(expandsInShell(arg) ? '' : unquoted(arg));
  }
  // Without `-e`, the first operand is the script.
  return (scriptGiven ? operands : operands.slice(1)).filter((f) => f.length > 0 && !/[<>]/.test(f));
}

function unquoted(word: string): string {
  return /^(["']).*\1$/s.test(word) ? word.slice(1, -1) : word;
}
