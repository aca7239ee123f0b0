/**
 * A text cut into its top-level ranges: the stretches a reader can take whole (a function, a class,
 * a module with its `end`, an object with its `}`), so that lines quoted from it are a range of it
 * or nothing, never a piece with its closing lines missing. A range starts at a line at the text's
 * least indentation that follows another such line (`}` or `end` closed what came before) or a
 * blank line; blank lines are left out. Indentation is read after a line number that a tool put in
 * front (`  12→`, `12\t`), so a numbered read is cut as the file is.
 */

/** A line number a tool puts in front of each line: Claude Code's `   12→`, `cat -n`'s `    12\t`. */
const LINE_NUMBER = /^\s*\d+(?:→|\t)/;

/**
 * The top-level ranges of `text`, in order, each a list of its lines as written (without trailing
 * spaces). A line longer than `maxLineChars` is data: the ranges before it are all that is given.
 */
export function topLevelRanges(text: string, maxLineChars: number): string[][] {
  const lines: { readonly text: string; readonly indent: number }[] = [];
  let blankBefore = false;
  const starts = new Set<number>();
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line.length > maxLineChars) break;
    const body = line.replace(LINE_NUMBER, '');
    if (body.trim().length === 0) {
      blankBefore = true;
      continue;
    }
    if (blankBefore) starts.add(lines.length);
    blankBefore = false;
    lines.push({ text: line, indent: body.length - body.trimStart().length });
  }
  if (lines.length === 0) return [];
  const least = lines.reduce((min, l) => Math.min(min, l.indent), Number.POSITIVE_INFINITY);
  const ranges: string[][] = [];
  lines.forEach((line, i) => {
    const top = line.indent === least;
    const opens = i === 0 || (top && (lines[i - 1].indent === least || starts.has(i)));
    if (opens) ranges.push([line.text]);
    else ranges[ranges.length - 1].push(line.text);
  });
  return ranges;
}
