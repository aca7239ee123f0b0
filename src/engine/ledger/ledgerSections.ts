/**
 * The protected sections of the rendered ledger: what is never cut to fit a budget (the workspace's
 * instructions, the intent, goals, locked decisions, progress, next step, artifacts and earlier user
 * messages).
 */
import type { LedgerSection, LedgerPart } from '../model/contextSection';
import { intentText, isShownAsIntent } from './intentExcerpt';
import type { Goal, InstructionEntry, Ledger, ProgressStatus, UserMessageEntry } from '../model/ledgerTypes';
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
 *
 * A long session has many, and they change only when one leaves the live context: each block is
 * made once, and the same messages shown give the same text as before.
 */
export function earlierUserMessages(ledger: Ledger, liveMessageIds: ReadonlySet<string>): string | undefined {
  const shown: number[] = [];
  ledger.userMessages.forEach((entry, i) => {
    if (!liveMessageIds.has(entry.messageId) && !isShownAsIntent(ledger, entry)) shown.push(i);
  });
  if (shown.length === 0) return undefined;
  const key = shown.join(',');
  const known = earlierTexts.get(ledger.userMessages);
  if (known?.key === key) return known.text;
  const blocks = shown.map((i) => userMessageBlock(ledger.userMessages[i], i + 1));
  const text = [`### Earlier user messages`, ...blocks].join('\n\n');
  earlierTexts.set(ledger.userMessages, { key, text });
  return text;
}

const earlierTexts = new WeakMap<readonly UserMessageEntry[], { readonly key: string; readonly text: string }>();

function userMessageBlock(entry: UserMessageEntry, number: number): string {
  const known = userMessageBlocks.get(entry);
  if (known?.number === number) return known.block;
  const block =
    entry.file === undefined
      ? `**User message ${number}:**\n${entry.text ?? ''}`
      : `**User message ${number}** (${formatCount(entry.tokens)} tokens, shortened below; full text: ${entry.file}):\n${entry.preview ?? ''}`;
  userMessageBlocks.set(entry, { number, block });
  return block;
}

const userMessageBlocks = new WeakMap<UserMessageEntry, { readonly number: number; readonly block: string }>();
