/**
 * One instruction file read into its parts: the `applyTo` globs of its front matter (the `---` block at
 * its top) and the text after it. Only `*.instructions.md` files are scoped by `applyTo`; the workspace's
 * `copilot-instructions.md` and `AGENTS.md` always apply, as in VS Code.
 */
import { splitGlobList } from './pathGlob';

/** The file name ending of instruction files that `applyTo` scopes. */
export const SCOPED_INSTRUCTIONS_SUFFIX = '.instructions.md';

/** An instruction file's parts. */
export interface ParsedInstructionFile {
  /** The text after the front matter, verbatim but for leading blank lines and trailing whitespace. */
  readonly body: string;
  /** The `applyTo` globs; undefined when the file applies to every file (no `applyTo`, or `**`, `**\/*`, `*`). */
  readonly applyTo?: readonly string[];
}

/** `applyTo` values that mean every file, whatever the turn touches (VS Code's own list). */
const EVERY_FILE = new Set(['**', '**/*', '*']);

/**
 * Splits the front matter from the body and reads `applyTo` (a string, quoted or not, or a YAML list).
 * A front matter that is never closed is not one: the whole text is the body, so nothing is lost.
 */
export function parseInstructionFile(path: string, text: string): ParsedInstructionFile {
  const unix = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const front = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(unix);
  const body = (front ? unix.slice(front[0].length) : unix).replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  if (!front || !path.toLowerCase().endsWith(SCOPED_INSTRUCTIONS_SUFFIX)) return { body };
  const globs = applyToGlobs(front[1]);
  return globs === undefined || globs.some((g) => EVERY_FILE.has(g)) ? { body } : { body, applyTo: globs };
}

/** The globs of the `applyTo:` line of a front matter; undefined when there is none or it names none. */
function applyToGlobs(frontMatter: string): string[] | undefined {
  const line = /^applyTo[ \t]*:[ \t]*(.*)$/m.exec(frontMatter);
  if (!line) return undefined;
  const value = line[1].replace(/[ \t]+#.*$/, '').trim();
  // A YAML list (`[a, 'b']`) holds one glob list per item; a plain value is one comma-separated list.
  const items = value.startsWith('[') && value.endsWith(']') ? splitGlobList(value.slice(1, -1)) : [value];
  const globs = items.flatMap((item) => splitGlobList(unquote(item)));
  return globs.length > 0 ? globs : undefined;
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value.trim());
  return quoted ? quoted[2] : value.trim();
}
