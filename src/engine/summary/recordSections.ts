/**
 * The summary sections built from the record of what the tools did (files, commands, errors) and
 * the progress marks: Artifacts Created, Current Progress and Critical Facts.
 */
import type { CommandRecord, ErrorRecord, FileAction, FileRecord, ToolRecord } from '../ledger/ledgerTypes';
import type { ConversationFacts } from './conversationFacts';
import { PRIORITY, recentFirst, type CandidateLine, type FitSection } from './fitLines';
import { oneLine, shortenEnd } from '../text/shorten';
import { sectionHeading } from './summaryFormat';

const { essential: ESSENTIAL, important: IMPORTANT, useful: USEFUL, detail: DETAIL } = PRIORITY;

/**
 * Most rows of each kind considered (the most recent ones).
 * @default 80 — more than any target shows; bounds the work on very long sessions.
 */
export const MAX_RECORD_ROWS = 80;

/** Longest command or error text shown, in characters. @default 160 */
export const MAX_RECORD_TEXT_CHARS = 160;

/** Longest subject (command or path) shown beside an open error in Remaining. @default 60 */
export const MAX_SUBJECT_CHARS = 60;

const STATUS_WORDS: Readonly<Record<FileAction, string>> = { read: 'read', created: 'created', edited: 'modified', deleted: 'deleted' };
const DONE = /\b(?:COMPLETED?|DONE|FINISHED)\b/i;

/** Files created, modified or deleted as a table; `[ARTIFACT]` lines; files only read on one line. */
export function artifactsSection(record: ToolRecord, artifactMarkers: readonly string[]): FitSection {
  const byTime = [...record.files].sort((a, b) => a.lastAt - b.lastAt);
  const changed = latest(byTime.filter((f) => f.actions.some((a) => a !== 'read')));
  const read = latest(byTime.filter((f) => f.actions.every((a) => a === 'read')));
  return {
    heading: sectionHeading('Artifacts Created'),
    required: [],
    groups: [
      {
        header: ['| Artifact | Path | Status |', '|----------|------|--------|'],
        lines: recentFirst(changed, artifactRow, IMPORTANT, USEFUL),
      },
      { lines: recentFirst(artifactMarkers, (m) => `- [ARTIFACT] ${m}`, USEFUL, DETAIL) },
      { lines: read.length > 0 ? [{ text: `- Read: ${read.map((f) => f.path).join(', ')}`, priority: DETAIL, shortenable: true }] : [] },
    ],
    empty: '- none recorded',
  };
}

function artifactRow(file: FileRecord): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const name = file.path.split(/[\\/]/).pop() ?? file.path;
  const status = file.actions.filter((a) => a !== 'read').map((a) => STATUS_WORDS[a]);
  return `| ${cell(name)} | ${cell(file.path)} | ${status.join(', ')} |`;
}

/** Phase, what was completed (checkpoints, fixed errors, commands that succeeded) and what remains. */
export function progressSection(guideProgress: readonly string[], facts: ConversationFacts, record: ToolRecord): FitSection {
  const marks = progressMarks(facts.markers.CHECKPOINT, guideProgress);
  const doneMarks = marks.filter((m) => DONE.test(m));
  const openMarks = marks.filter((m) => !DONE.test(m));
  const errors = latestErrors(record.errors);
  const fixed = errors.filter((e) => e.fixed);
  const unfixed = errors.filter((e) => !e.fixed);
  const succeeded = latestCommands(record.commands).filter((c) => c.ok);
  const sub = (text: string) => `  - ${text}`;
  const completed: CandidateLine[] = [
    ...doneMarks.map((m, i) => ({ text: sub(`[CHECKPOINT] ${m}`), priority: IMPORTANT, rank: doneMarks.length - i })),
    ...recentFirst(fixed, (e) => sub(`Fixed: ${errorText(e.subject ?? e.summary)}`), USEFUL, DETAIL),
    ...recentFirst(succeeded, (c) => sub(`Ran ${commandText(c)}${c.output === undefined ? '' : `: ${c.output}`}`), DETAIL, DETAIL),
  ];
  const remaining: CandidateLine[] = [
    ...openMarks.map((m, i) => ({ text: sub(`[CHECKPOINT] ${m}`), priority: ESSENTIAL, rank: i })),
    ...recentFirst(
      unfixed,
      (e) => sub(`Unfixed: ${errorText(e.summary)}${e.subject ? ` (${shortenEnd(oneLine(e.subject), MAX_SUBJECT_CHARS)})` : ''}`),
      IMPORTANT,
      USEFUL,
    ),
  ];
  return {
    heading: sectionHeading('Current Progress'),
    required: [],
    groups: [
      {
        label: '- **Phase:**',
        empty: '- **Phase:** not stated',
        lines: facts.phase ? [{ text: `- **Phase:** ${facts.phase}`, priority: IMPORTANT, shortenable: true }] : [],
      },
      { header: ['- **Completed:**'], label: '- **Completed:**', empty: '- **Completed:** nothing recorded', lines: completed },
      { header: ['- **Remaining:**'], label: '- **Remaining:**', empty: '- **Remaining:** nothing recorded', lines: remaining },
    ],
    empty: '',
  };
}

/** Progress marks, one per step: the conversation's `[CHECKPOINT]` lines, then the guide's, the later status winning. */
function progressMarks(markers: readonly string[], guide: readonly string[]): string[] {
  const byStep = new Map<string, string>();
  for (const mark of [...markers, ...guide]) {
    const step = mark
      .replace(/\s*[-–—:]\s*(?:COMPLETED?|DONE|FINISHED|IN[ -]PROGRESS|PENDING)\s*$/i, '')
      .trim()
      .toLowerCase();
    byStep.delete(step);
    byStep.set(step, mark);
  }
  return [...byStep.values()];
}

/** Errors with their fix status, failed commands (not already reported as errors) with their exit codes, identifiers mentioned. */
export function criticalFactsSection(record: ToolRecord, identifiers: readonly string[]): FitSection {
  const errors = latestErrors(record.errors);
  const reported = new Set(record.errors.map((e) => e.callId));
  const exitCodes = new Map(record.commands.flatMap((c) => (c.exitCode !== undefined ? [[c.callId, c.exitCode] as const] : [])));
  const failed = latestCommands(record.commands).filter((c) => !c.ok && !reported.has(c.callId));
  return {
    heading: sectionHeading('Critical Facts'),
    required: [],
    groups: [
      {
        lines: [
          ...recentFirst(errors, (e) => errorFact(e, exitCodes.get(e.callId)), IMPORTANT, USEFUL),
          ...recentFirst(failed, (c) => `- ${commandText(c)}`, USEFUL, DETAIL),
          ...(identifiers.length > 0 ? [{ text: `- Mentioned: ${identifiers.join(', ')}`, priority: DETAIL, shortenable: true }] : []),
        ],
      },
    ],
    empty: '- none recorded',
  };
}

/** `` `command` (exit N) ``, or "(failed)" / "(ok)" when the exit status is unknown. */
function commandText(command: CommandRecord): string {
  const status = command.exitCode !== undefined ? `exit ${command.exitCode}` : command.ok ? 'ok' : 'failed';
  return `\`${shortenEnd(oneLine(command.command), MAX_RECORD_TEXT_CHARS)}\` (${status})`;
}

/** An error with what it was about, its command's exit code, and whether it was fixed. */
function errorFact(error: ErrorRecord, exitCode: number | undefined): string {
  const subject = error.subject ? ` \`${errorText(error.subject)}\`` : '';
  const exit = exitCode !== undefined ? ` (exit ${exitCode})` : '';
  return `- ${error.toolName}${subject}${exit}: ${errorText(error.summary)} — ${error.fixed ? 'fixed' : 'not fixed'}`;
}

function errorText(text: string): string {
  return shortenEnd(oneLine(text), MAX_RECORD_TEXT_CHARS);
}

/** Each command once, as it last ran, the most recent {@link MAX_RECORD_ROWS}. */
function latestCommands(commands: readonly CommandRecord[]): CommandRecord[] {
  const byText = new Map<string, CommandRecord>();
  for (const command of commands) {
    byText.delete(command.command);
    byText.set(command.command, command);
  }
  return latest([...byText.values()]);
}

/** Each error once (same subject and message), as it last happened, the most recent {@link MAX_RECORD_ROWS}. */
function latestErrors(errors: readonly ErrorRecord[]): ErrorRecord[] {
  const byKey = new Map<string, ErrorRecord>();
  for (const error of errors) {
    const key = `${error.subject ?? ''}\u0000${error.summary}`;
    byKey.delete(key);
    byKey.set(key, error);
  }
  return latest([...byKey.values()]);
}

function latest<T>(items: readonly T[]): T[] {
  return items.slice(-MAX_RECORD_ROWS);
}
