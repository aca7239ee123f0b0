/**
 * A printed line that is only a file's name: an item of a listing (`ls`, `find`, `git status`,
 * `grep -l`, a count per file) or a search's context line whose text has nothing to say
 * (`logger.go-10-//`). What it tells is that the file exists, and the agent's next step says
 * whether that mattered: a file it then opened or named is in the ledger's record anyway.
 */

/** Letters the rest of a line may have and still be nothing but its file's name and numbers. @default 3 */
const MAX_REST_LETTERS = 3;
/**
 * A path: segments with a separator between two of them, or after the last (`dist/`), after a drive's letter on
 * Windows (`D:\repo\a.ts`). One segment after a leading separator (`/check-size`) is a command's name as often as a file's.
 */
const PATH = /^(?:[A-Za-z]:)?(?:[~.]?[\w@.+-]+|[~.]?(?:[/\\][\w@.+-]+))(?:[/\\][\w@.+-]+)+[/\\]?$|^[\w@.+-]+[/\\]$/;
/** A file's name with an extension of a few letters or digits (`init.lua`, `tsconfig.json`). */
const FILE_NAME = /^[\w@+-][\w@+-]*(?:\.[\w@+-]+)*\.[A-Za-z][A-Za-z0-9]{0,4}$/;
/** Where a name ends: a `:` before a line number, a grep context's `-12-`, or a space. */
const NAME_END = /:\d|-\d+-|\s/;
const LETTER = /\p{L}/gu;

/** True when the line is a file's name, with at most a line number, a count or a few characters beside it. */
export function isBareName(line: string): boolean {
  const trimmed = line.trim();
  const end = trimmed.search(NAME_END);
  const name = end < 0 ? trimmed : trimmed.slice(0, end);
  if (name.length === 0 || !(PATH.test(name) || FILE_NAME.test(name))) return false;
  const rest = end < 0 ? '' : trimmed.slice(end);
  return (rest.match(LETTER)?.length ?? 0) <= MAX_REST_LETTERS;
}
