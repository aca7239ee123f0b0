/**
 * A command line that only prints lines of files: how an agent with no read tool reads a file
 * (`cat a.ts`, `sed -n '40,80p' a.ts`, `nl -ba a.ts | sed -n '1,60p'`, `head -n 50 a.ts`, and in PowerShell
 * `Get-Content -Path a.ts | Select-Object -First 80`, `gc a.ts`). What it
 * did is a read of those files, and what it printed is their content, not what a step came to.
 * Read from the command's words alone; anything else in the line (a redirect, another program, a
 * glob, a second command) makes it a command like any other.
 */

import { CD_PREFIX } from './commandKey';

/** Programs that print a file's lines, each with the options that only choose which lines and how they are numbered. */
const PRINTERS: Readonly<Record<string, (args: readonly string[]) => readonly string[] | undefined>> = {
  cat: (args) => filesAfter(args, /^-[nbAsv]+$/),
  nl: (args) => filesAfter(args, /^-(?:b[atn]?|ba|n[lrn]{2}|w\d+|v\d+)$/, /^-[bnwv]$/),
  head: (args) => filesAfter(args, /^-(?:\d+|n\d+|c\d+)$/, /^-[nc]$/),
  tail: (args) => filesAfter(args, /^-(?:\d+|n\+?\d+|c\d+)$/, /^-[nc]$/),
  sed: (args) => sedPrintFiles(args),
  'get-content': (args) => powerShellFiles(args),
  gc: (args) => powerShellFiles(args),
  'select-object': (args) => filesAfter(args, /^$/, /^-(?:first|last|skip|index)$/i),
};
/** What a file's printed lines may go through after the program that read them: the same printers, without a file. */
const FILTERS = new Set(['sed', 'head', 'tail', 'nl', 'cat', 'select-object']);
/** PowerShell's options of `Get-Content` that name the file, that only choose lines, and that take no value. */
const POWERSHELL_PATH = /^-(?:path|literalpath)$/i;
const POWERSHELL_LINES = /^-(?:totalcount|head|first|tail|last|readcount|encoding)$/i;
const POWERSHELL_SWITCH = /^-raw$/i;
/** A `sed` script that only prints lines: `40,80p`, `12p`, `1,/^}/p`. */
const SED_PRINT = /^(?:\d+|\/[^/]*\/|\$)(?:,(?:\d+|\/[^/]*\/|\$))?p$/;
const LEADING_CD = new RegExp(String.raw`^\s*${CD_PREFIX}`);
/** Redirecting errors away changes nothing the command does. */
const QUIET = /\s+2>\s*\/dev\/null/g;
/** Characters that make a line more than a pipeline of plain words. */
const SHELL_SYNTAX = /[;&<>`$(){}*?[\]]/;

/** The files `command` only prints, as it names them; empty when the command does anything else. */
export function filesOnlyPrinted(command: string): string[] {
  const line = command.replace(LEADING_CD, '').replace(QUIET, '').trim();
  if (line.length === 0 || line.includes('\n')) return [];
  const stages = line.split('|').map((stage) => words(stage));
  if (stages.some((stage) => stage === undefined || stage.length === 0)) return [];
  const [first, ...rest] = stages as string[][];
  // PowerShell's names are the same in any case: `Get-Content`, `get-content`.
  const files = PRINTERS[first[0].toLowerCase()]?.(first.slice(1));
  if (files === undefined || files.length === 0) return [];
  for (const stage of rest) {
    const filter = stage[0].toLowerCase();
    if (!FILTERS.has(filter) || PRINTERS[filter](stage.slice(1))?.length !== 0) return [];
  }
  return [...files];
}

/**
 * The file arguments after options that match `option` (or `valued`, an option whose value is the next word);
 * undefined when another option is there.
 */
function filesAfter(args: readonly string[], option: RegExp, valued?: RegExp): string[] | undefined {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (valued?.test(arg)) {
      if (!/^\+?\d+$/.test(args[i + 1] ?? '') && !/^[atn]$/.test(args[i + 1] ?? '')) return undefined;
      i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      if (!option.test(arg)) return undefined;
    } else files.push(arg);
  }
  return files;
}

/** `Get-Content [-Path] <files> [-TotalCount n] [-Raw]`: the files, when its options only choose lines. */
function powerShellFiles(args: readonly string[]): string[] | undefined {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (POWERSHELL_PATH.test(arg)) {
      if (args[i + 1] === undefined) return undefined;
      files.push(args[++i]);
    } else if (POWERSHELL_LINES.test(arg)) {
      if (args[i + 1] === undefined) return undefined;
      i++;
    } else if (arg.startsWith('-')) {
      if (!POWERSHELL_SWITCH.test(arg)) return undefined;
    } else files.push(arg);
  }
  return files;
}

/** `sed -n '<lines>p' [files]`: the files, when the script only prints lines. */
function sedPrintFiles(args: readonly string[]): string[] | undefined {
  if (args[0] !== '-n' || args.length < 2 || !SED_PRINT.test(args[1])) return undefined;
  const files = args.slice(2);
  return files.some((f) => f.startsWith('-')) ? undefined : files;
}

/** The stage's words, quotes taken off; undefined when it holds shell syntax outside quotes. */
function words(stage: string): string[] | undefined {
  const out: string[] = [];
  for (const match of stage.trim().matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const bare = match[3];
    if (bare !== undefined && SHELL_SYNTAX.test(bare)) return undefined;
    // Double quotes still expand `$VAR` and `` `…` ``.
    if (match[1] !== undefined && /[$`]/.test(match[1])) return undefined;
    out.push(match[1] ?? match[2] ?? bare);
  }
  return out;
}

/** A line in which one of the printers or `ls` complains, naming itself first: `cat: b.env: Permission denied`. */
export function isPrinterComplaint(line: string): boolean {
  const colon = line.indexOf(': ');
  const program = line.slice(0, colon);
  return colon > 0 && (Object.hasOwn(PRINTERS, program) || program === LISTER);
}

/** The program that lists files: what it prints are their names, whatever they say. */
const LISTER = 'ls';

/**
 * True when every command line only lists files (`ls -la src`, `ls -d ~/.a ~/.b 2>/dev/null`): one `ls` and its options
 * and paths, without a pipe or another command.
 */
export function onlyListsFiles(commands: readonly string[]): boolean {
  return (
    commands.length > 0 &&
    commands.every((command) => {
      const line = command.replace(LEADING_CD, '').replace(QUIET, '').trim();
      const stage = line.includes('\n') || line.includes('|') ? undefined : words(line);
      return stage !== undefined && stage[0] === LISTER;
    })
  );
}

/** True when every command line only prints files (see {@link filesOnlyPrinted}). */
export function onlyPrintsFiles(commands: readonly string[]): boolean {
  return commands.length > 0 && commands.every((c) => filesOnlyPrinted(c).length > 0);
}
