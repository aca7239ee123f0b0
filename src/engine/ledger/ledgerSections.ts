/**
 * The protected sections of the rendered ledger: what is never cut to fit a budget (the workspace's
 * instructions, the intent, goals, locked decisions, progress, next step, artifacts and earlier user
 * messages).
 */
import { intentText, isShownAsIntent } from './intentExcerpt';
import type { Goal, InstructionEntry, Ledger, ProgressStatus, UserMessageEntry } from './ledgerTypes';
import { pinnedSection } from './pinned';
import { formatCount } from '../text/numbers';

export const LEDGER_HEADING = '## Session ledger';
export const LEDGER_NOTE =
  '_Kept by ctx from the conversation and the tool calls, and never summarized: what stands here stands as written._';

const PROGRESS_ICONS: Readonly<Record<ProgressStatus, string>> = { completed: '✅', 'in-progress': '🔄', pending: '⏳' };

/** A titled section, or undefined when there is nothing to put in it. */
export function section(title: string, lines: readonly string[]): string | undefined {
  return lines.length === 0 ? undefined : `### ${title}\n${lines.join('\n')}`;
}

export const INSTRUCTIONS_HEADING = '### Workspace instructions';
export const INSTRUCTIONS_NOTE = "_The workspace's instruction files that apply, verbatim. Follow them throughout._";

/** The parts of the rendered ledger, each a section of its own (what the context's composition is made of). */
export type LedgerPart =
  | 'ledgerHeading'
  | 'instructions'
  | 'intent'
  | 'goals'
  | 'decisions'
  | 'progress'
  | 'nextStep'
  | 'artifacts'
  | 'pinned'
  | 'facts'
  | 'toolRecord'
  | 'userMessages';

/** One section of the rendered ledger and the part it is. */
export interface LedgerSection {
  readonly part: LedgerPart;
  readonly text: string;
}

/**
 * The workspace's instructions, intent, goals, decisions, progress, next step, artifacts and the
 * pinned items no longer live, in that order; empty ones left out. A huge intent whose full text is
 * kept elsewhere shows its start and end (see `intentText`).
 */
export function leadingSections(
  ledger: Ledger,
  liveMessageIds: ReadonlySet<string> = new Set(),
  livePinned: ReadonlySet<string> = new Set(),
): LedgerSection[] {
  const intent = intentText(ledger, liveMessageIds);
  const sections: [LedgerPart, string | undefined][] = [
    ['instructions', instructionsSection(ledger.instructions ?? [])],
    ['intent', intent === undefined ? undefined : section('Session intent', [intent])],
    ['goals', section('Goals', goalLines(ledger.goals))],
    [
      'decisions',
      section(
        'Locked decisions',
        ledger.decisions.map((d) => `- ${d.locked ? '🔒 ' : ''}${d.text}`),
      ),
    ],
    [
      'progress',
      section(
        'Progress',
        ledger.progress.map((p) => `- ${PROGRESS_ICONS[p.status]} ${p.text}`),
      ),
    ],
    ['nextStep', ledger.nextStep === undefined ? undefined : section('Next step', [ledger.nextStep.text])],
    [
      'artifacts',
      section(
        'Artifacts',
        ledger.artifacts.map((a) => `- ${a}`),
      ),
    ],
    ['pinned', pinnedSection(ledger, livePinned)],
  ];
  return sections.flatMap(([part, text]) => (text === undefined ? [] : [{ part, text }]));
}

/** Each instruction file under its path (and its `applyTo` globs), its text as it is. */
function instructionsSection(entries: readonly InstructionEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  const files = entries.map((e) => `#### ${e.path}${e.applyTo ? ` (applies to ${e.applyTo.join(', ')})` : ''}\n\n${e.text}`);
  return [`${INSTRUCTIONS_HEADING}\n${INSTRUCTIONS_NOTE}`, ...files].join('\n\n');
}

function goalLines(goals: readonly Goal[]): string[] {
  const open = goals
    .filter((g) => g.status !== 'completed')
    .map((g) => (g.status === 'paused' ? `- ⏸️ ${g.text} (paused)` : `- ${g.text}`));
  const done = goals.filter((g) => g.status === 'completed').map((g) => `- ✅ ${g.text}`);
  return [...open, ...done];
}

/**
 * User messages no longer in the live context, verbatim and in order, numbered by their place
 * among all user messages. The intent's message is shown once, as the intent. A message kept in
 * a file shows its preview and the file.
 */
export function earlierUserMessages(ledger: Ledger, liveMessageIds: ReadonlySet<string>): string | undefined {
  const blocks: string[] = [];
  ledger.userMessages.forEach((entry, i) => {
    if (liveMessageIds.has(entry.messageId)) return;
    if (isShownAsIntent(ledger, entry)) return;
    blocks.push(userMessageBlock(entry, i + 1));
  });
  return blocks.length === 0 ? undefined : [`### Earlier user messages`, ...blocks].join('\n\n');
}

function userMessageBlock(entry: UserMessageEntry, number: number): string {
  if (entry.file === undefined) return `**User message ${number}:**\n${entry.text ?? ''}`;
  const tokens = formatCount(entry.tokens);
  return `**User message ${number}** (${tokens} tokens; the start is below, full text: ${entry.file}):\n${entry.preview ?? ''}`;
}
