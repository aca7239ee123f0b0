/**
 * The tool record as lines for the rendered ledger, each list in display order, and the order in
 * which lines give way when the budget is short: least important and oldest first.
 */
import { subjectKey } from './commandKey';
import { shortenEnd } from '../text/shorten';
import type { CommandRecord, ErrorRecord, FileRecord, OffloadedEntry, ToolRecord } from './ledgerTypes';
import { memoizeByObject } from '../memo';
import { formatCount } from '../text/numbers';

/**
 * The sections of the tool record, and `outputs`: what the commands printed, shown after their
 * command lines when there is room, so a short budget drops what a command printed before it
 * drops the command.
 */
export type RecordSectionId = 'files' | 'commands' | 'errors' | 'offloaded' | 'outputs';

/** One section of the tool record: its lines in display order. */
export interface RecordSection {
  readonly id: RecordSectionId;
  readonly title: string;
  /** What the lines are, for saying what was shortened: "files", "commands"… */
  readonly noun: string;
  readonly lines: readonly string[];
}

/** What the commands printed, in the order of the command lines they belong to. */
export interface OutputDetails {
  /** Index of the command line each output follows. */
  readonly lineIndex: readonly number[];
  /** The text added after the command line (`: first … last`). */
  readonly texts: readonly string[];
}

/** A line's place in the cutting order: lower tiers stay longest. */
export interface RankedLine {
  readonly section: RecordSectionId;
  readonly tier: number;
  readonly at: number;
}

/**
 * Importance tiers, kept in this order: unfixed errors, files changed, commands, offloaded
 * results, fixed errors, files only read, what commands printed. Within a tier the most recent
 * stays longest.
 */
const TIER = { unfixedError: 0, changedFile: 1, command: 2, offloaded: 3, fixedError: 4, readFile: 5, output: 6 } as const;
/** Longest command shown, in characters: the first line only. */
const COMMAND_MAX_CHARS = 120;
const PATH_MAX_CHARS = 160;

/**
 * The sections in render order, each with its lines ordered so a kept part is always a prefix,
 * and the outputs of the commands. A command that ran several times is listed once, as it last
 * ran, with how many times it ran.
 *
 * It runs on every request while the record changes, so each entry's line is made once and
 * remembered with the entry, and the cutting order is put together tier by tier: each tier is one
 * section's lines, already newest first in display order.
 */
export const recordSections: (record: ToolRecord) => RecordLines = memoizeByObject(linesOf);

/** The tool record as the ledger shows it. */
export interface RecordLines {
  readonly sections: readonly RecordSection[];
  readonly ranked: readonly RankedLine[];
  readonly outputs: OutputDetails;
}

function linesOf(record: ToolRecord): RecordLines {
  const files = orderedFiles(record.files);
  const commands = latestRuns(record.commands);
  const { unfixed, fixed } = errorsByState(record.errors);
  const offloaded = [...record.offloaded].reverse();
  const lineIndex: number[] = [];
  const texts: string[] = [];
  const outputAts: number[] = [];
  commands.forEach(({ command: c }, i) => {
    if (c.output === undefined) return;
    lineIndex.push(i);
    texts.push(outputText(c));
    outputAts.push(c.at);
  });

  const fixes = fixed.length === 0 ? new Map<string, string>() : new Map(record.commands.map((c) => [c.callId, c.command]));
  const sections: RecordSection[] = [
    { id: 'files', title: 'Files', noun: 'files', lines: [...files.changed, ...files.read].map(fileLine) },
    { id: 'commands', title: 'Commands', noun: 'commands', lines: commands.map(commandLine) },
    { id: 'errors', title: 'Errors', noun: 'errors', lines: [...unfixed, ...fixed].map((e) => errorLine(e, fixes)) },
    { id: 'offloaded', title: 'Offloaded results', noun: 'offloaded results', lines: offloaded.map(offloadedLine) },
    { id: 'outputs', title: 'Command output', noun: 'command outputs', lines: texts },
  ];
  const ranked: RankedLine[] = [
    ...unfixed.map((e) => ({ section: 'errors' as const, tier: TIER.unfixedError, at: e.at })),
    ...files.changed.map((f) => ({ section: 'files' as const, tier: TIER.changedFile, at: f.lastAt })),
    ...commands.map(({ command: c }) => ({ section: 'commands' as const, tier: TIER.command, at: c.at })),
    ...offloaded.map(() => ({ section: 'offloaded' as const, tier: TIER.offloaded, at: 0 })),
    ...fixed.map((e) => ({ section: 'errors' as const, tier: TIER.fixedError, at: e.at })),
    ...files.read.map((f) => ({ section: 'files' as const, tier: TIER.readFile, at: f.lastAt })),
    ...outputAts.map((at) => ({ section: 'outputs' as const, tier: TIER.output, at })),
  ];
  return { sections, ranked, outputs: { lineIndex, texts } };
}

/** Each command once, newest first, as it last ran, with how many times it ran. Lists that did not change are not gone through again. */
const latestRuns = memoizeByObject((commands: readonly CommandRecord[]): readonly { command: CommandRecord; runs: number }[] => {
  const byText = new Map<string, { command: CommandRecord; runs: number }>();
  for (const c of newestFirst(commands, (x) => x.at)) {
    const seen = byText.get(c.command);
    if (seen) seen.runs++;
    else byText.set(c.command, { command: c, runs: 1 });
  }
  return [...byText.values()];
});

/** Unfixed errors and fixed ones, each newest first. */
const errorsByState = memoizeByObject((errors: readonly ErrorRecord[]) => ({
  unfixed: newestFirst(errors.filter((e) => !e.fixed)),
  fixed: newestFirst(errors.filter((e) => e.fixed)),
}));

function isChanged(file: FileRecord): boolean {
  return file.actions.some((a) => a !== 'read');
}

/** Files changed and files only read, each most recently touched first. */
const orderedFiles = memoizeByObject((files: readonly FileRecord[]) => {
  const recent = newestFirst(files, (f) => f.lastAt);
  return { changed: recent.filter(isChanged), read: recent.filter((f) => !isChanged(f)) };
});

/**
 * Most recent first; equal times keep the later record first. Records are mostly appended in time
 * order, so that case is a reversal, without a sort.
 */
function newestFirst<T>(items: readonly T[], timeOf: (item: T) => number): T[];
function newestFirst<T extends { readonly at: number }>(items: readonly T[]): T[];
function newestFirst<T>(items: readonly T[], timeOf: (item: T) => number = (item) => (item as { at: number }).at): T[] {
  let inOrder = true;
  for (let i = 1; i < items.length && inOrder; i++) inOrder = timeOf(items[i - 1]) <= timeOf(items[i]);
  if (inOrder) return [...items].reverse();
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => timeOf(b.item) - timeOf(a.item) || b.i - a.i)
    .map((x) => x.item);
}

/** A line made for a record entry with the same inputs is the same line: remembered with the entry. */
function rememberedLine<K extends object>(
  key: K,
  inputs: string,
  make: () => string,
  memo: WeakMap<K, { inputs: string; line: string }>,
): string {
  const known = memo.get(key);
  if (known && known.inputs === inputs) return known.line;
  const line = make();
  memo.set(key, { inputs, line });
  return line;
}

const fileLines = new WeakMap<FileRecord, { inputs: string; line: string }>();
const commandLines = new WeakMap<CommandRecord, { inputs: string; line: string }>();
const errorLines = new WeakMap<ErrorRecord, { inputs: string; line: string }>();

function fileLine(file: FileRecord): string {
  return rememberedLine(file, '', () => `- ${code(shortenEnd(file.path, PATH_MAX_CHARS))}: ${file.actions.join(', ')}`, fileLines);
}

function commandLine({ command: c, runs }: { command: CommandRecord; runs: number }): string {
  return rememberedLine(
    c,
    String(runs),
    () => {
      const status = c.exitCode !== undefined ? `exit ${c.exitCode}` : c.ok ? 'ok' : 'failed';
      return `- ${code(oneLine(c.command))}${runs > 1 ? ` (${runs} runs)` : ''} → ${status}`;
    },
    commandLines,
  );
}

const outputText = memoizeByObject((c: CommandRecord) => `: ${c.output}`);

const offloadedLine = memoizeByObject((o: OffloadedEntry) => `- ${o.toolName}, ${formatCount(o.tokens)} tokens: \`${o.file}\``);

/** A fixed error's line names the call that fixed it, as the record knows it now. */
function errorLine(e: ErrorRecord, fixes: ReadonlyMap<string, string>): string {
  const fix = e.fixed && e.fixedByCallId !== undefined ? fixes.get(e.fixedByCallId) : undefined;
  return rememberedLine(
    e,
    fix === undefined ? '' : `=${fix}`,
    () => {
      const on = e.subject === undefined ? '' : ` on ${code(oneLine(e.subject))}`;
      if (!e.fixed) return `- ❌ ${e.toolName}${on}: ${e.summary}`;
      return `- ✔️ ${e.toolName}${on}: ${e.summary}; ${fixedBy(e, fix)}`;
    },
    errorLines,
  );
}

/** How a fixed error was fixed: the command that then worked, or a later run of the same one. */
function fixedBy(e: ErrorRecord, fix: string | undefined): string {
  if (fix === undefined) return `fixed by a later successful call${e.fixedByCallId ? ` (${e.fixedByCallId})` : ''}`;
  if (e.subject !== undefined && subjectKey(fix) === subjectKey(e.subject)) return 'fixed: a later run succeeded';
  return `fixed by ${code(oneLine(fix))}`;
}

/** A command's first line, shortened, with a mark when more lines follow. */
function oneLine(text: string): string {
  const lines = text.trim().split('\n');
  const first = lines[0].replace(/\s+/g, ' ').trim();
  return lines.length > 1 ? `${shortenEnd(first, COMMAND_MAX_CHARS)} …` : shortenEnd(first, COMMAND_MAX_CHARS);
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}
