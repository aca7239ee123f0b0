/**
 * The summary sections built from the record of what the tools did (files, commands, errors), the
 * progress marks and the span's facts: Artifacts Created, Current Progress and Critical Facts.
 */
import type { CommandRecord, ErrorRecord, FileAction, FileRecord, ToolRecord } from '../model/ledgerTypes';
import type { ConversationFacts } from './conversationFacts';
import type { Fact } from '../model/fact';
import { holdsKey, matchForm } from '../facts/factKey';
import { factLine } from '../facts/factLines';
import { PRIORITY, recentFirst, type CandidateLine, type FitSection } from './fitLines';
import { oneLine, onOneLine, shortenEnd } from '../text/shorten';
import { keepingCause } from '../text/errorCause';
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

/**
 * Files created, modified or deleted as a table; `[ARTIFACT]` lines; files only read on one line;
 * files the conversation named that no tool touched on another, the most important first.
 */
export function artifactsSection(record: ToolRecord, artifactMarkers: readonly string[], facts: readonly Fact[] = []): FitSection {
  const byTime = [...record.files].sort((a, b) => a.lastAt - b.lastAt);
  const changed = latest(byTime.filter((f) => f.actions.some((a) => a !== 'read')));
  const read = latest(byTime.filter((f) => f.actions.every((a) => a === 'read')));
  const artifacts = facts.filter((f) => f.kind === 'artifact' && !record.files.some((r) => r.path.endsWith(f.key)));
  // A name is listed by itself; an artifact said in words (a file's opening comment, a confirmation) keeps its own line,
  // file name and all: a list of names cut from their files would read as names.
  const named = artifacts.filter((f) => !/\s/.test(f.key));
  const described = artifacts.filter((f) => /\s/.test(f.key));
  return {
    heading: sectionHeading('Artifacts Created'),
    required: [],
    groups: [
      {
        header: ['| Artifact | Path | Status |', '|----------|------|--------|'],
        lines: recentFirst(changed, artifactRow, IMPORTANT, USEFUL),
      },
      { lines: recentFirst(artifactMarkers, (m) => `- [ARTIFACT] ${m}`, USEFUL, DETAIL) },
      {
        lines:
          changed.length > 0
            ? [
                {
                  text: `- Changed: ${[...changed].reverse().map(changedName).join(', ')}`,
                  priority: IMPORTANT,
                  shortenable: true,
                  fallback: true,
                },
              ]
            : [],
      },
      { lines: read.length > 0 ? [{ text: `- Read: ${read.map((f) => f.path).join(', ')}`, priority: DETAIL, shortenable: true }] : [] },
      { lines: named.length > 0 ? [{ text: `- Named: ${rankedKeys(named).join(', ')}`, priority: DETAIL, shortenable: true }] : [] },
      { lines: described.map((f) => factCandidate(f)) },
    ],
  };
}

/** A changed file's name and what happened to it, for the one-line form of the table: `router.ex (modified)`. */
function changedName(file: FileRecord): string {
  const name = file.path.split(/[\\/]/).pop() ?? file.path;
  return `${name} (${file.actions
    .filter((a) => a !== 'read')
    .map((a) => STATUS_WORDS[a])
    .join(', ')})`;
}

function artifactRow(file: FileRecord): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const name = file.path.split(/[\\/]/).pop() ?? file.path;
  const status = file.actions.filter((a) => a !== 'read').map((a) => STATUS_WORDS[a]);
  return `| ${cell(name)} | ${cell(file.path)} | ${status.join(', ')} |`;
}

/**
 * Phase, what was completed (checkpoints, fixed errors, commands that succeeded) and what remains.
 * `besideLedger` leaves the progress marks out, and the errors still open: the ledger beside the
 * summary holds the marks, and says where each error stands now, which a summary written once
 * cannot follow.
 */
export function progressSection(
  guideProgress: readonly string[],
  facts: ConversationFacts,
  record: ToolRecord,
  besideLedger = false,
  resolved: ResolvedBy = () => undefined,
): FitSection {
  const marksShown = !besideLedger;
  const marks = marksShown ? progressMarks(facts.markers.CHECKPOINT, guideProgress) : [];
  const doneMarks = marks.filter((m) => DONE.test(m));
  const openMarks = marks.filter((m) => !DONE.test(m));
  const errors = latestErrors(record.errors);
  const fixed = errors.filter((e) => e.fixed || resolved(e) !== undefined);
  const unfixed = besideLedger ? [] : errors.filter((e) => !e.fixed && resolved(e) === undefined);
  const succeeded = latestCommands(record.commands).filter((c) => c.ok);
  const sub = (text: string) => `  - ${text}`;
  const completed: CandidateLine[] = [
    ...doneMarks.map((m, i) => ({ text: sub(`[CHECKPOINT] ${m}`), priority: IMPORTANT, rank: doneMarks.length - i })),
    ...recentFirst(fixed, (e) => sub(`Fixed: ${errorText(e.subject ?? e.summary)}`), USEFUL, DETAIL),
    ...recentFirst(
      succeeded,
      (c) => sub(`${c.search === true ? 'Searched' : 'Ran'} ${commandText(c)}${c.output === undefined ? '' : `: ${c.output}`}`),
      DETAIL,
      DETAIL,
    ),
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
        lines: shownPhase(facts) ? [{ text: `- **Phase:** ${facts.phase}`, priority: USEFUL, shortenable: true, restates: true }] : [],
      },
      { header: ['- **Completed:**'], lines: completed },
      { header: ['- **Remaining:**'], lines: remaining },
    ],
  };
}

/** The phase, unless the plan already says it. */
export function shownPhase(facts: ConversationFacts): string | undefined {
  return facts.phase !== undefined && !facts.plan.includes(facts.phase) ? facts.phase : undefined;
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

/** Shortest error summary that, held whole by an error fact, makes the fact a repeat of the record's line. @default 20 */
const MIN_HELD_SUMMARY_CHARS = 20;

/**
 * Errors with their fix status, failed commands (not already reported as errors) with their exit
 * codes, then the span's facts the record (or `shownElsewhere`) does not hold: errors with how
 * they were resolved, outcomes, and the names mentioned. `besideLedger` says only how an error was
 * fixed, never that it is not: the ledger beside the summary says where it stands now.
 */
export function criticalFactsSection(
  record: ToolRecord,
  facts: readonly Fact[],
  resolved: ResolvedBy = () => undefined,
  shownElsewhere: readonly string[] = [],
  besideLedger = false,
): FitSection {
  const errors = latestErrors(record.errors);
  const reported = new Set(record.errors.map((e) => e.callId));
  const exitCodes = new Map(record.commands.flatMap((c) => (c.exitCode !== undefined ? [[c.callId, c.exitCode] as const] : [])));
  const failed = latestCommands(record.commands).filter((c) => !c.ok && !reported.has(c.callId));
  // Record errors are shown first, and the phase elsewhere: a fact they already state is not
  // repeated. Command outputs are only details, often left out, so outcomes are not checked against them.
  const recorded = [...errors.map((e) => e.summary), ...shownElsewhere].map(matchForm);
  // An error fact kept as the tool wrote it (`<tool_use_error>…</tool_use_error>`) holds the record's summary instead.
  const summaries = errors.map((e) => matchForm(e.summary.replace(/…$/, ''))).filter((s) => s.length >= MIN_HELD_SUMMARY_CHARS);
  const holdsSummary = (f: Fact) => f.kind === 'error' && summaries.some((s) => matchForm(f.key).includes(s));
  const untold = (f: Fact) => !recorded.some((r) => holdsKey(r, f.key)) && !holdsSummary(f);
  const factLines = facts.filter((f) => (f.kind === 'error' || f.kind === 'outcome') && untold(f));
  const names = facts.filter((f) => f.kind === 'identifier');
  return {
    heading: sectionHeading('Critical Facts'),
    required: [],
    groups: [
      {
        lines: [
          ...recentFirst(errors, (e) => errorFact(e, exitCodes.get(e.callId), resolved(e), !besideLedger), IMPORTANT, USEFUL),
          ...recentFirst(failed, (c) => `- ${commandText(c)}`, USEFUL, DETAIL),
          ...factLines.map((f) => factCandidate(f, f.kind === 'error' && f.resolution?.resolved === false ? IMPORTANT : undefined)),
          ...(names.length > 0 ? [{ text: `- Mentioned: ${rankedKeys(names).join(', ')}`, priority: DETAIL, shortenable: true }] : []),
        ],
      },
    ],
  };
}

/** A fact as a candidate line: its priority and rank from its score (or the priority given), shortenable. */
export function factCandidate(fact: Fact, priority?: number): CandidateLine {
  return { text: `- ${factLine(fact)}`, priority: priority ?? factPriority(fact.score), rank: factRank(fact.score), shortenable: false };
}

/** Scores from 0.75 are important, from 0.5 useful, the rest detail. */
export function factPriority(score: number): number {
  return score >= 0.75 ? IMPORTANT : score >= 0.5 ? USEFUL : DETAIL;
}

/** Within a priority, higher scores first; ranks compare with `recentFirst`'s (1 = most recent). */
export function factRank(score: number): number {
  return 1 + Math.round((1 - score) * 10);
}

function rankedKeys(facts: readonly Fact[]): string[] {
  return [...facts].sort((a, b) => b.score - a.score).map((f) => f.key);
}

/** `` `command` (exit N) ``, or "(failed)" / "(ok)" when the exit status is unknown. */
function commandText(command: CommandRecord): string {
  const status = command.exitCode !== undefined ? `exit ${command.exitCode}` : command.ok ? 'ok' : 'failed';
  return `\`${shortenEnd(commandLines(command.command), MAX_RECORD_TEXT_CHARS)}\` (${status})`;
}

/** A command's lines on one line, the breaks between them shown (`↵`): a command of several lines is not read as one line. */
function commandLines(command: string): string {
  return command
    .split('\n')
    .map(oneLine)
    .filter((line) => line.length > 0)
    .join(' ↵ ');
}

/** An error with what it was about, its command's exit code, and whether (and how) it was fixed; `openShown` says "not fixed" too. */
function errorFact(error: ErrorRecord, exitCode: number | undefined, resolvedBy: string | undefined, openShown: boolean): string {
  const subject = error.subject ? ` \`${errorText(error.subject)}\`` : '';
  const exit = exitCode !== undefined ? ` (exit ${exitCode})` : '';
  const fixedBy = error.fixedBy ? `fixed: \`${errorText(error.fixedBy)}\` succeeded` : 'fixed';
  const status = error.fixed ? fixedBy : resolvedBy !== undefined ? `resolved: ${resolvedBy}` : openShown ? 'not fixed' : undefined;
  return `- ${error.toolName}${subject}${exit}: ${errorText(error.summary)}${status === undefined ? '' : ` — ${status}`}`;
}

/**
 * How a recorded error was resolved when the record does not know it was (the span's facts can
 * see a different command succeed on the same thing); undefined when nothing resolved it.
 */
export type ResolvedBy = (error: ErrorRecord) => string | undefined;

/** Reads the resolution of recorded errors from the span's error facts with the same line. */
export function resolvedByFacts(facts: readonly Fact[]): ResolvedBy {
  const byKey = facts
    .filter((f) => f.kind === 'error' && f.resolution?.resolved)
    .map((f) => ({ key: f.key, by: f.resolution?.by ?? 'later' }));
  return (error) => {
    if (byKey.length === 0) return undefined;
    const summary = matchForm(error.summary);
    return byKey.find((f) => holdsKey(summary, f.key))?.by;
  };
}

/** An error's line as written, cut to keep its cause (`text/errorCause.ts`). */
function errorText(text: string): string {
  const line = onOneLine(text).trim();
  return keepingCause(line, MAX_RECORD_TEXT_CHARS)?.text ?? shortenEnd(line, MAX_RECORD_TEXT_CHARS);
}

/** Each command once, as it last ran, the most recent {@link MAX_RECORD_ROWS}. */
function latestCommands(commands: readonly CommandRecord[]): CommandRecord[] {
  return latestDistinct(commands, (c) => c.command);
}

/** Each error once (same subject and message), as it last happened, the most recent {@link MAX_RECORD_ROWS}. */
function latestErrors(errors: readonly ErrorRecord[]): ErrorRecord[] {
  return latestDistinct(errors, (e) => `${e.subject ?? ''}\u0000${e.summary}`);
}

/**
 * The last occurrence of each key, oldest first, the most recent {@link MAX_RECORD_ROWS}. Read from
 * the end, so a merged checkpoint's full record costs the rows shown, not every row it holds.
 */
function latestDistinct<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  const newestFirst: T[] = [];
  for (let i = items.length - 1; i >= 0 && newestFirst.length < MAX_RECORD_ROWS; i--) {
    const key = keyOf(items[i]);
    if (seen.has(key)) continue;
    seen.add(key);
    newestFirst.push(items[i]);
  }
  return newestFirst.reverse();
}

function latest<T>(items: readonly T[]): T[] {
  return items.slice(-MAX_RECORD_ROWS);
}
