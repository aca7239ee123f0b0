/**
 * The tool record as lines for the rendered ledger, each list in display order, and the order in
 * which lines give way when the budget is short: least important and oldest first.
 */
import { subjectKey } from './commandKey';
import { shortenEnd } from '../text/shorten';
import type { CommandRecord, ErrorRecord, FileRecord, ToolRecord } from './ledgerTypes';
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
 */
export function recordSections(record: ToolRecord): { sections: RecordSection[]; ranked: RankedLine[]; outputs: OutputDetails } {
  const ranked: RankedLine[] = [];
  const files = orderedFiles(record.files);
  files.forEach((f) => ranked.push({ section: 'files', tier: isChanged(f) ? TIER.changedFile : TIER.readFile, at: f.lastAt }));
  const commands = latestRuns(record.commands);
  commands.forEach(({ command: c }) => ranked.push({ section: 'commands', tier: TIER.command, at: c.at }));
  const errors = [...newestFirst(record.errors.filter((e) => !e.fixed)), ...newestFirst(record.errors.filter((e) => e.fixed))];
  errors.forEach((e) => ranked.push({ section: 'errors', tier: e.fixed ? TIER.fixedError : TIER.unfixedError, at: e.at }));
  const offloaded = [...record.offloaded].reverse();
  offloaded.forEach(() => ranked.push({ section: 'offloaded', tier: TIER.offloaded, at: 0 }));
  const lineIndex: number[] = [];
  const texts: string[] = [];
  commands.forEach(({ command: c }, i) => {
    if (c.output === undefined) return;
    lineIndex.push(i);
    texts.push(`: ${c.output}`);
    ranked.push({ section: 'outputs', tier: TIER.output, at: c.at });
  });

  const fixes = new Map(record.commands.map((c) => [c.callId, c.command]));
  const sections: RecordSection[] = [
    { id: 'files', title: 'Files', noun: 'files', lines: files.map(fileLine) },
    { id: 'commands', title: 'Commands', noun: 'commands', lines: commands.map(commandLine) },
    { id: 'errors', title: 'Errors', noun: 'errors', lines: errors.map((e) => errorLine(e, fixes)) },
    {
      id: 'offloaded',
      title: 'Offloaded results',
      noun: 'offloaded results',
      lines: offloaded.map((o) => `- ${o.toolName}, ${formatCount(o.tokens)} tokens: \`${o.file}\``),
    },
    { id: 'outputs', title: 'Command output', noun: 'command outputs', lines: texts },
  ];
  // Stable sort: within a tier, records of the same time keep their display order.
  const order = ranked.map((r, i) => ({ r, i })).sort((a, b) => a.r.tier - b.r.tier || b.r.at - a.r.at || a.i - b.i);
  return { sections, ranked: order.map((o) => o.r), outputs: { lineIndex, texts } };
}

/** Each command once, newest first, as it last ran, with how many times it ran. */
function latestRuns(commands: readonly CommandRecord[]): { command: CommandRecord; runs: number }[] {
  const byText = new Map<string, { command: CommandRecord; runs: number }>();
  for (const c of newestFirst(commands)) {
    const seen = byText.get(c.command);
    if (seen) seen.runs++;
    else byText.set(c.command, { command: c, runs: 1 });
  }
  return [...byText.values()];
}

function isChanged(file: FileRecord): boolean {
  return file.actions.some((a) => a !== 'read');
}

function orderedFiles(files: readonly FileRecord[]): FileRecord[] {
  const recent = newestFirst(files.map((f) => ({ ...f, at: f.lastAt })));
  return [...recent.filter(isChanged), ...recent.filter((f) => !isChanged(f))];
}

/** Most recent first; equal times keep the later record first. */
function newestFirst<T extends { readonly at: number }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => b.item.at - a.item.at || b.i - a.i)
    .map((x) => x.item);
}

function fileLine(file: FileRecord): string {
  return `- ${code(shortenEnd(file.path, PATH_MAX_CHARS))}: ${file.actions.join(', ')}`;
}

function commandLine({ command: c, runs }: { command: CommandRecord; runs: number }): string {
  const status = c.exitCode !== undefined ? `exit ${c.exitCode}` : c.ok ? 'ok' : 'failed';
  return `- ${code(oneLine(c.command))}${runs > 1 ? ` (${runs} runs)` : ''} → ${status}`;
}

function errorLine(e: ErrorRecord, fixes: ReadonlyMap<string, string>): string {
  const on = e.subject === undefined ? '' : ` on ${code(oneLine(e.subject))}`;
  if (!e.fixed) return `- ❌ ${e.toolName}${on}: ${e.summary}`;
  return `- ✔️ ${e.toolName}${on}: ${e.summary}; ${fixedBy(e, fixes)}`;
}

/** How a fixed error was fixed: the command that then worked, or a later run of the same one. */
function fixedBy(e: ErrorRecord, fixes: ReadonlyMap<string, string>): string {
  const fix = e.fixedByCallId === undefined ? undefined : fixes.get(e.fixedByCallId);
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
