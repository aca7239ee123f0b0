/**
 * The lines a unified diff adds and removes (`git diff`, `git show`, `gh pr diff`, `diff -u`), found in whatever text
 * prints one by its hunks' headers: they are lines of files, whatever they say.
 */

/** A hunk's header: `@@ -12,6 +12,8 @@`, what follows it (a function's name) aside. */
const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;
/** The lines of a hunk: added, removed, unchanged (one space before), the note of a missing last line break, or empty. */
const HUNK_LINE = /^(?:[+\- \\]|$)/;
/** The names of the two files a diff compares: `--- a/x.go`, `+++ b/x.go`. */
const FILE_NAMES = /^(?:\+\+\+|---) /;
/** Where a shortened output left lines out (`…`, `[… 12 lines omitted …]`): the hunk it cut goes on after it. */
const GAP = /^\[?…/;

/** How a diff changed a line. */
export type DiffChange = 'added' | 'removed';

/** The places of the lines of `lines` (as printed, not trimmed) that a diff's hunks add or remove. */
export function diffChanges(lines: readonly string[]): ReadonlyMap<number, DiffChange> {
  const changes = new Map<number, DiffChange>();
  let inHunk = false;
  lines.forEach((line, at) => {
    if (line.startsWith('@@')) {
      inHunk = HUNK_HEADER.test(line);
      return;
    }
    if (!inHunk || GAP.test(line)) return;
    if (!HUNK_LINE.test(line) || FILE_NAMES.test(line)) {
      inHunk = false;
      return;
    }
    if (line.startsWith('+')) changes.set(at, 'added');
    else if (line.startsWith('-')) changes.set(at, 'removed');
  });
  return changes;
}
