/**
 * Files a command line writes from a here-document: how an agent with no write tool writes a file
 * (`cat > src/fines.py <<'EOF'`, `cat <<EOF > notes.md`, `tee -a log.txt <<'END'`). What it wrote is the
 * document's text, read from the command alone; the command may go on to run what it wrote, so it stays a command.
 */

import { CD_PREFIX } from './commandKey';
import { expandsInShell } from './shellWords';

/** A file written from a here-document. */
export interface ShellWrite {
  readonly path: string;
  readonly content: string;
  /** Written after what the file held (`>>`, `tee -a`) rather than in its place. */
  readonly appended: boolean;
}

/** Characters of a command read for here-documents. @default 200000 */
const SHELL_WRITE_CHARS = 200_000;
/** A path on the command line, bare or quoted. */
const PATH = String.raw`(?<path>"[^"\n]+"|'[^'\n]+'|[^\s;&|<>'"]+)`;
/** A here-document's opening and its delimiter, bare or quoted. */
const HEREDOC = String.raw`<<-?\s*(?<quote>['"]?)(?<tag>[A-Za-z_]\w*)\k<quote>`;
/** Where a line of the command starts, past a `cd <dir> &&` that only says where it runs. */
const LINE_START = String.raw`[ \t]*(?:${CD_PREFIX})?`;
/** `cat > path <<TAG`, `cat <<TAG > path` and `tee [-a] path <<TAG`, each at the start of a line of the command. */
const OPENERS = [
  new RegExp(String.raw`^${LINE_START}cat\s+(?<redirect>>>?)\s*${PATH}\s*${HEREDOC}[^\n]*\n`, 'gm'),
  new RegExp(String.raw`^${LINE_START}cat\s+${HEREDOC}\s*(?<redirect>>>?)\s*${PATH}[^\n]*\n`, 'gm'),
  new RegExp(String.raw`^${LINE_START}tee\s+(?<append>-a\s+)?${PATH}\s*(?:>\s*/dev/null\s*)?${HEREDOC}[^\n]*\n`, 'gm'),
];

/** The files `command` writes from here-documents, in order of the command's text. */
export function shellWrites(command: string): ShellWrite[] {
  if (!command.includes('<<')) return [];
  const text = command.slice(0, SHELL_WRITE_CHARS);
  const found: (ShellWrite & { readonly at: number })[] = [];
  for (const opener of OPENERS) {
    for (const m of text.matchAll(opener)) {
      const { path, tag, redirect, append } = m.groups ?? {};
      const start = (m.index ?? 0) + m[0].length;
      const end = new RegExp(String.raw`^[ \t]*${tag}[ \t]*$`, 'm').exec(text.slice(start));
      // A path the shell expands (`"$draft"`, `$(mktemp)`) names no file the command line says: the command stays one.
      if (end === null || path === undefined || expandsInShell(path)) continue;
      const content = text.slice(start, start + end.index).replace(/\n$/, '');
      found.push({ at: m.index ?? 0, path: unquoted(path), content, appended: redirect === '>>' || append !== undefined });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ path, content, appended }) => ({ path, content, appended }));
}

function unquoted(path: string): string {
  return /^(["']).*\1$/.test(path) ? path.slice(1, -1) : path;
}
