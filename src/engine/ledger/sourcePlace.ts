/**
 * A place in a source file as tools print it: a file name with its extension, a line, maybe a
 * column (`docs/a.md:12`, `src/a.ts:4:15`, `parser_test.go:22`). One pattern for every reader of
 * outputs, so a line that one of them takes as located the others take so too.
 */

/** The place itself: a name ending in an extension, `:line`, `:column` maybe, and no word glued after it. */
const PLACE = String.raw`[\w@.-]\.[A-Za-z]{1,6}:\d+(?::\d+)?\b`;

/** A line that names a place in a source file anywhere in it. */
export const SOURCE_PLACE = new RegExp(PLACE);

/**
 * A message at a source location: the location first, then a colon and words (`parser_test.go:22: got 6, want 7`,
 * `./main.go:3:2: undefined: foo`), not a stack frame that mentions a location (`at f (src/a.js:4:15)`).
 */
const LOCATED_MESSAGE = new RegExp(String.raw`^[\w@./\\-]*${PLACE}:\s*\S.*\p{L}`, 'u');

/** True for a line that names a place in a source file. */
export function hasSourcePlace(line: string): boolean {
  return SOURCE_PLACE.test(line);
}

/** True for a cleaned line that says something at a source location (see {@link LOCATED_MESSAGE}). */
export function isLocatedMessage(line: string): boolean {
  return LOCATED_MESSAGE.test(line);
}

/**
 * A compiler's error at a source location: the location first (`src/a.ts:12:5`, or TypeScript's `src/a.ts(12,5)`), then
 * the severity (`- error TS2339: …`, `: error: …`, `: fatal error: …`).
 */
const LOCATED_ERROR = new RegExp(String.raw`^[\w@./\\-]*(?:${PLACE}|[\w@.-]\.[A-Za-z]{1,6}\(\d+,\d+\))\s*[-:]\s*(?:fatal\s+)?error\b`, 'i');

/** True for a compiler's error at a source location (see {@link LOCATED_ERROR}). */
export function isLocatedError(line: string): boolean {
  return LOCATED_ERROR.test(line);
}
