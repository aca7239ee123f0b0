/**
 * The tool record as lines for the rendered ledger, each list in display order, and the order in
 * which lines give way when the budget is short: least important and oldest first.
 */
import { subjectKey } from './commandKey';
import { shortenEnd } from '../text/shorten';
import type { CommandRecord, ErrorRecord, FileRecord, OffloadedEntry, ToolRecord } from '../model/ledgerTypes';
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

/**
 * A run of lines in the cutting order: the next `count` lines of one section. Within a section
 * lines are kept in display order, so the lines a run stands for are the ones after those kept
 * before it.
 */
export interface RankedRun {
  readonly section: RecordSectionId;
  readonly count: number;
}

/** Longest command shown, in characters: the first line only. */
const COMMAND_MAX_CHARS = 120;
const PATH_MAX_CHARS = 160;

/**
 * The sections in render order, each with its lines ordered so a kept part is always a prefix,
 * and the outputs of the commands. A command that ran several times is listed once, as it last
 * ran, with how many times it ran.
 *
 * It runs on every request while the record changes, so each list's section is made once per
 * list and a list the record did not change keeps its section (the same object), each entry's
 * line is made once and remembered with the entry, and the cutting order is a few runs of lines,
 * not one item per line: unfixed errors stay longest, then files changed, commands, offloaded
 * results, fixed errors, files only read, searches and what commands printed, the most recent first in each.
 */
export const recordSections = memoizeByObject((record: ToolRecord): RecordLines => {
  const files = fileSection(record.files);
  const commands = commandSection(record.commands);
  const errors = errorSection(record.errors, record.commands);
  const offloaded = offloadedSection(record.offloaded);
  const runs: RankedRun[] = [
    { section: 'errors', count: errors.unfixed },
    { section: 'files', count: files.changed },
    { section: 'commands', count: commands.section.lines.length - commands.searches },
    { section: 'offloaded', count: offloaded.lines.length },
    { section: 'errors', count: errors.section.lines.length - errors.unfixed },
    { section: 'files', count: files.section.lines.length - files.changed },
    { section: 'commands', count: commands.searches },
    { section: 'outputs', count: commands.outputs.texts.length },
  ];
  return {
    sections: [files.section, commands.section, errors.section, offloaded, commands.outputSection],
    ranked: runs.filter((r) => r.count > 0),
    outputs: commands.outputs,
  };
});

/** The tool record as the ledger shows it. */
export interface RecordLines {
  /** Files, commands, errors, offloaded results and outputs: a section whose list did not change is the same object. */
  readonly sections: readonly RecordSection[];
  /** The cutting order: what stays longest first. */
  readonly ranked: readonly RankedRun[];
  /** Belongs to the commands section: the same while it is the same. */
  readonly outputs: OutputDetails;
}

/** Files changed, then files only read, each most recently touched first; `changed` of them changed. */
const fileSection = memoizeByObject((list: readonly FileRecord[]): { section: RecordSection; changed: number } => {
  const files = orderedFiles(list);
  const lines = [...files.changed, ...files.read].map(fileLine);
  return { section: { id: 'files', title: 'Files', noun: 'files', lines }, changed: files.changed.length };
});

/** Each command once, newest first, then each search, and what they printed, in the order of their lines. */
const commandSection = memoizeByObject((list: readonly CommandRecord[]) => {
  const runs = latestRuns(list);
  const searches = runs.filter((r) => r.command.search === true);
  const commands = searches.length === 0 ? runs : [...runs.filter((r) => r.command.search !== true), ...searches];
  const lineIndex: number[] = [];
  const texts: string[] = [];
  commands.forEach(({ command: c }, i) => {
    if (c.output === undefined) return;
    lineIndex.push(i);
    texts.push(outputText(c));
  });
  const section: RecordSection = {
    id: 'commands',
    ...(searches.length === 0
      ? { title: 'Commands', noun: 'commands' }
      : { title: 'Commands and searches', noun: 'commands and searches' }),
    lines: commands.map(commandLine),
  };
  const outputSection: RecordSection = { id: 'outputs', title: 'Command output', noun: 'command outputs', lines: texts };
  return { section, outputSection, outputs: { lineIndex, texts }, searches: searches.length };
});

interface ErrorSection {
  readonly section: RecordSection;
  /** How many of the lines, from the first, are unfixed errors. */
  readonly unfixed: number;
}

/**
 * Unfixed errors, then fixed ones, each newest first. A fixed error's line names the command that
 * fixed it, which the error keeps; only records kept before it did look the command up among the
 * commands, and their section is made again when the commands change. With the same lines it
 * stays the same object.
 */
function errorSection(errors: readonly ErrorRecord[], commands: readonly CommandRecord[]): ErrorSection {
  const known = errorSections.get(errors);
  if (known && (known.commands === commands || known.commands === undefined)) return known.value;
  const { unfixed, fixed } = errorsByState(errors);
  const looksUp = fixed.some((e) => e.fixedBy === undefined && e.fixedByCallId !== undefined);
  const fixes = looksUp ? commandsByCallId(commands) : undefined;
  const unfixedLines = sameErrors(unfixed).map((group) => (group.length === 1 ? errorLine(group[0], fixes) : repeatedErrorLine(group)));
  const fixedLines = sameErrors(fixed, true).map((group) =>
    group.length === 1 ? errorLine(group[0], fixes) : repeatedFixLine(group, fixes),
  );
  const lines = [...unfixedLines, ...fixedLines];
  const value =
    known && sameLines(known.value.section.lines, lines)
      ? known.value
      : { section: { id: 'errors' as const, title: 'Errors', noun: 'errors', lines }, unfixed: unfixedLines.length };
  errorSections.set(errors, { commands: looksUp ? commands : undefined, value });
  return value;
}

/** Each list's section, with the commands it looked fixes up in (undefined when it needed none). */
const errorSections = new WeakMap<readonly ErrorRecord[], { commands: readonly CommandRecord[] | undefined; value: ErrorSection }>();

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

const commandsByCallId = memoizeByObject((commands: readonly CommandRecord[]) => new Map(commands.map((c) => [c.callId, c.command])));

/** Offloaded results, the newest first. */
const offloadedSection = memoizeByObject((list: readonly OffloadedEntry[]): RecordSection => ({
  id: 'offloaded',
  title: 'Offloaded results',
  noun: 'offloaded results',
  lines: [...list].reverse().map(offloadedLine),
}));

/** A command's latest run and how many times it ran. */
interface CommandRuns {
  readonly command: CommandRecord;
  readonly runs: number;
}

/**
 * Each command once, newest first, as it last ran, with how many times it ran. The record's list
 * changes by new runs at its end and, at its cap, its oldest leaving: then the runs of the list
 * before are carried over with those changes, instead of the whole list being gone through again.
 */
function latestRuns(commands: readonly CommandRecord[]): CommandRuns[] {
  const slid = lastRuns && slidOn(lastRuns, commands);
  const byText = slid ?? runsOf(commands);
  // Runs are carried over only from a list in time order, where the oldest last run is the first in the list.
  lastRuns = slid || inTimeOrder(commands, 0) ? { list: commands, byText } : undefined;
  return [...byText.values()].reverse();
}

/** Runs by command text, the oldest last run first, and the list they are of. */
interface RunsOfList {
  readonly list: readonly CommandRecord[];
  readonly byText: ReadonlyMap<string, CommandRuns>;
}

/** The list latest runs were last worked out for. */
let lastRuns: RunsOfList | undefined;

/** Runs by command text, the oldest last run first (by time; at equal times the earlier entry first). */
function runsOf(commands: readonly CommandRecord[]): Map<string, CommandRuns> {
  const byText = new Map<string, CommandRuns>();
  for (const c of newestFirst(commands, (x) => x.at).reverse()) addRun(byText, c);
  return byText;
}

/**
 * The runs of `next` from those of `before`, when `next` is its list without some of its first
 * entries and with new ones after, still in time order; undefined otherwise.
 */
function slidOn(before: RunsOfList, next: readonly CommandRecord[]): Map<string, CommandRuns> | undefined {
  const list = before.list;
  const dropped = next.length === 0 ? list.length : list.indexOf(next[0]);
  if (dropped < 0) return undefined;
  const kept = list.length - dropped;
  if (kept > next.length) return undefined;
  for (let i = 0; i < kept; i++) if (list[dropped + i] !== next[i]) return undefined;
  if (!inTimeOrder(next, Math.max(0, kept - 1))) return undefined;
  const byText = new Map(before.byText);
  for (let i = 0; i < dropped; i++) {
    const gone = list[i];
    const known = byText.get(gone.command);
    if (known === undefined) return undefined;
    if (known.runs === 1) byText.delete(gone.command);
    else byText.set(gone.command, { command: known.command, runs: known.runs - 1 });
  }
  for (let i = kept; i < next.length; i++) addRun(byText, next[i]);
  return byText;
}

/** A later run of a command: it moves to the end (the most recent) with one run more. */
function addRun(byText: Map<string, CommandRuns>, c: CommandRecord): void {
  const known = byText.get(c.command);
  byText.delete(c.command);
  byText.set(c.command, { command: c, runs: (known?.runs ?? 0) + 1 });
}

function inTimeOrder(commands: readonly CommandRecord[], from: number): boolean {
  for (let i = from + 1; i < commands.length; i++) if (commands[i - 1].at > commands[i].at) return false;
  return true;
}

/** Unfixed errors and fixed ones, each newest first: the same while the errors are (the commands change more often). */
const errorsByState = memoizeByObject((errors: readonly ErrorRecord[]): { unfixed: ErrorRecord[]; fixed: ErrorRecord[] } => {
  return {
    unfixed: newestFirst(
      errors.filter((e) => !e.fixed),
      (e) => e.at,
    ),
    fixed: newestFirst(
      errors.filter((e) => e.fixed),
      (e) => e.at,
    ),
  };
});

function isChanged(file: FileRecord): boolean {
  return file.actions.some((a) => a !== 'read');
}

/** Files changed and files only read, each most recently touched first. */
function orderedFiles(files: readonly FileRecord[]): { changed: FileRecord[]; read: FileRecord[] } {
  const recent = newestFirst(files, (f) => f.lastAt);
  return { changed: recent.filter(isChanged), read: recent.filter((f) => !isChanged(f)) };
}

/**
 * Most recent first; equal times keep the later record first. Records are mostly appended in time
 * order, so that case is a reversal, without a sort.
 */
function newestFirst<T>(items: readonly T[], timeOf: (item: T) => number): T[] {
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

/** An offloaded result: its tool, what the call was about, its size and its file. */
const offloadedLine = memoizeByObject((o: OffloadedEntry) => {
  // A subject that names the tool (`Glob *.proto`) already stands after its name.
  const subject = o.subject?.startsWith(`${o.toolName} `) ? o.subject.slice(o.toolName.length + 1) : o.subject;
  const about = subject === undefined ? '' : ` ${code(shortenEnd(oneLine(subject), OFFLOADED_SUBJECT_CHARS))}`;
  return `- ${o.toolName}${about}, ${formatCount(o.tokens)} tokens: \`${o.file}\``;
});

/** Longest subject shown for an offloaded result, in characters. @default 80 */
const OFFLOADED_SUBJECT_CHARS = 80;

/** Subjects named on the line of an error that several calls hit. @default 3 */
const MAX_SUBJECTS_SHOWN = 3;

/**
 * Errors grouped by tool and message (and, with `sameSubject`, what they were about), in the order of each
 * group's first: calls that failed the same way say it once.
 */
function sameErrors(errors: readonly ErrorRecord[], sameSubject = false): ErrorRecord[][] {
  const groups = new Map<string, ErrorRecord[]>();
  for (const e of errors) {
    const key = `${e.toolName}\u0000${e.summary}${sameSubject ? `\u0000${e.subject ?? ''}` : ''}`;
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  return [...groups.values()];
}

/** One line for unfixed errors that several calls of one tool hit with the same message: the message once, with what they were about. */
function repeatedErrorLine(group: readonly ErrorRecord[]): string {
  const subjects = [...new Set(group.flatMap((e) => (e.subject === undefined ? [] : [code(oneLine(e.subject))])))];
  const shown = subjects.slice(0, MAX_SUBJECTS_SHOWN).join(', ');
  const more = subjects.length > MAX_SUBJECTS_SHOWN ? ` and ${subjects.length - MAX_SUBJECTS_SHOWN} more` : '';
  const on = subjects.length > 0 ? ` on ${shown}${more}` : '';
  return `- ❌ ${group[0].toolName} (${group.length} calls)${on}: ${group[0].summary}`;
}

/** One line for fixed errors that several calls of one tool hit on the same thing with the same message: the latest fix. */
function repeatedFixLine(group: readonly ErrorRecord[], fixes: ReadonlyMap<string, string> | undefined): string {
  return errorText(group[0], fixingCommand(group[0], fixes), ` (${group.length} calls)`);
}

/** A fixed error's line names the call that fixed it. */
function errorLine(e: ErrorRecord, fixes: ReadonlyMap<string, string> | undefined): string {
  const fix = fixingCommand(e, fixes);
  return rememberedLine(e, fix === undefined ? '' : `=${fix}`, () => errorText(e, fix), errorLines);
}

/** An error's line: its mark, the tool (and how many calls, for a group), what it was about, the message and, when fixed, how. */
function errorText(e: ErrorRecord, fix: string | undefined, calls = ''): string {
  const on = e.subject === undefined ? '' : ` on ${code(oneLine(e.subject))}`;
  if (!e.fixed) return `- ❌ ${e.toolName}${calls}${on}: ${e.summary}`;
  return `- ✔️ ${e.toolName}${calls}${on}: ${e.summary}; ${fixedBy(e, fix)}`;
}

/** The command that fixed the error, when a command did: kept with it, or looked up for a record kept before it was. */
function fixingCommand(e: ErrorRecord, fixes: ReadonlyMap<string, string> | undefined): string | undefined {
  if (!e.fixed) return undefined;
  if (e.fixedBy !== undefined) return e.fixedBy === '' ? undefined : e.fixedBy;
  return e.fixedByCallId === undefined ? undefined : fixes?.get(e.fixedByCallId);
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
