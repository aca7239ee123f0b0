/**
 * The workspace's instructions in the ledger: which instruction files apply to the session, read through the
 * `InstructionFiles` port, and the ledger with them. A file whose `applyTo` names some files applies once the
 * session has touched or attached a matching file (a path in the ledger's file record, or one the turn
 * attaches); VS Code's rule: a glob that does not start with `/` or `**\/` may match at any depth.
 */
import type { InstructionFiles, InstructionFileText } from '../ports';
import { parseInstructionFile } from './instructionFile';
import type { InstructionEntry, Ledger } from '../model/ledgerTypes';
import { matchesGlob } from './pathGlob';

/**
 * Most characters of one instruction file kept in the ledger.
 * @default 20000 — about 5,000 tokens: instruction files are a few kilobytes; a stray huge one must not
 * take the ledger's whole share of a small window. The cut says where the whole file is.
 */
export const MAX_INSTRUCTION_CHARS = 20_000;

/** Reads the instruction files and keeps those that apply, given the paths the session touched or attached. */
export async function readInstructions(files: InstructionFiles, touchedPaths: readonly string[]): Promise<InstructionEntry[]> {
  return applicableInstructions(await files.read(), touchedPaths);
}

/** The files that apply, in their order, each once, their text cut past `MAX_INSTRUCTION_CHARS`. */
export function applicableInstructions(files: readonly InstructionFileText[], touchedPaths: readonly string[]): InstructionEntry[] {
  const seen = new Set<string>();
  const entries: InstructionEntry[] = [];
  for (const file of files) {
    if (seen.has(file.path)) continue;
    seen.add(file.path);
    const parsed = parseInstructionFile(file.path, file.text);
    if (parsed.body.length === 0) continue;
    if (parsed.applyTo !== undefined && !parsed.applyTo.some((glob) => touchedPaths.some((p) => matchesGlob(p, anyDepth(glob))))) {
      continue;
    }
    const text = cut(parsed.body, file.path);
    entries.push(parsed.applyTo === undefined ? { path: file.path, text } : { path: file.path, text, applyTo: parsed.applyTo });
  }
  return entries;
}

/** The ledger with these instructions; the same ledger when they are what it holds already. */
export function withInstructions(ledger: Ledger, entries: readonly InstructionEntry[]): Ledger {
  const current = ledger.instructions ?? [];
  if (current.length === entries.length && current.every((e, i) => sameEntry(e, entries[i]))) return ledger;
  return { ...ledger, instructions: entries };
}

function sameEntry(a: InstructionEntry, b: InstructionEntry): boolean {
  return a.path === b.path && a.text === b.text && (a.applyTo ?? []).join(',') === (b.applyTo ?? []).join(',');
}

/** VS Code matches a relative `applyTo` glob at any depth (`src/**` matches `/home/me/project/src/a.ts`). */
function anyDepth(glob: string): string {
  return glob.startsWith('/') || glob.startsWith('**/') ? glob : `**/${glob}`;
}

function cut(text: string, path: string): string {
  if (text.length <= MAX_INSTRUCTION_CHARS) return text;
  return (
    `${text.slice(0, MAX_INSTRUCTION_CHARS)}\n\n` +
    `[ctx: ${path} goes on for ${(text.length - MAX_INSTRUCTION_CHARS).toLocaleString('en-US')} more characters; read the file for the rest.]`
  );
}
