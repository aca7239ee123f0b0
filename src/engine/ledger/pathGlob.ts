/**
 * Glob patterns as instruction files' `applyTo` uses them: `**` any number of folders, `*` any characters
 * within one name, `?` one character, `{a,b}` alternatives, `[abc]` / `[!abc]` character classes. Paths are
 * compared with `/` separators (backslashes count as `/`), ignoring case, as VS Code does for `applyTo`.
 */

/** Splits a comma-separated list of globs, keeping the commas inside `{…}` and `[…]` (`src/*.{ts,js}, docs/**`). */
export function splitGlobList(list: string): string[] {
  const globs: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      globs.push(list.slice(start, i));
      start = i + 1;
    }
  }
  globs.push(list.slice(start));
  return globs.map((g) => g.trim()).filter((g) => g.length > 0);
}

/** The glob as an anchored, case-insensitive regular expression over a whole path. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`, 'i');
}

/** Whether `path` (any separators) matches `glob` as a whole. */
export function matchesGlob(path: string, glob: string): boolean {
  return globToRegExp(glob).test(path.replace(/\\/g, '/'));
}

function translate(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slashFollows = glob[i + 2] === '/';
      // `**/` is zero or more whole folders; a trailing `**` is anything at all.
      out += slashFollows ? '(?:[^/]*/)*' : '.*';
      i += slashFollows ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = closingBrace(glob, i);
      if (end < 0) out += '\\{';
      else {
        out += `(?:${splitAlternatives(glob.slice(i + 1, end))
          .map(translate)
          .join('|')})`;
        i = end;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, end);
        const negated = body.startsWith('!') || body.startsWith('^');
        out += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]]/g, '\\$&')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
  }
  return out;
}

/** Index of the `}` closing the `{` at `open`, counting nested braces; -1 when it is not closed. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The alternatives of a brace body, split at its top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
