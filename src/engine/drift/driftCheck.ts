/**
 * The drift check (design §6.1): after the context is compressed,
 * everything the session depends on (its intent, active goals, locked decisions, the next step and
 * the artifacts it produced) must still be in the context, or at least findable on disk.
 */
import type { Ledger } from '../model/ledgerTypes';
import { shortenEnd } from '../text/shorten';

export type DriftItemKind = 'intent' | 'goal' | 'decision' | 'next' | 'artifact';

/** One thing the context must still contain. */
export interface DriftItem {
  readonly kind: DriftItemKind;
  /** Verbatim from the ledger. */
  readonly text: string;
  readonly present: boolean;
}

export interface DriftReport {
  readonly status: 'ALIGNED' | 'DRIFT_DETECTED';
  /** Every required item, in ledger order: intent, goals, decisions, next step, artifacts. */
  readonly items: DriftItem[];
  readonly missing: DriftItem[];
  /** Weighted share of required items present, 0 to 1; 1 when nothing is required. */
  readonly confidence: number;
}

export interface DriftCheckInput {
  /** The context as the model will see it, rendered to text. */
  readonly contextText: string;
  readonly ledger: Ledger;
  /** Whether an artifact is on disk (or otherwise recoverable) even when the context does not name it. */
  isFindable(path: string): boolean;
}

/**
 * How much each kind counts toward confidence. The intent is what the whole session serves and
 * decisions the thing that prevents backtracking, so they weigh most; an artifact can be found
 * again on disk, so it weighs least.
 */
export const DRIFT_WEIGHTS: Readonly<Record<DriftItemKind, number>> = { intent: 3, decision: 2, goal: 2, next: 1.5, artifact: 1 };

/** Texts longer than this are matched by a distinctive head and tail rather than whole. */
export const WHOLE_MATCH_MAX_CHARS = 400;
/** Length of the head and of the tail matched for a long text; enough to be distinctive. */
export const HEAD_TAIL_CHARS = 120;

/** Tool actions that leave an artifact behind: a read leaves nothing to lose. */
const ARTIFACT_ACTIONS: ReadonlySet<string> = new Set(['created', 'edited', 'deleted']);

/** Checks that every required item of the ledger is still in the context (or, for artifacts, findable). */
export function checkDrift(input: DriftCheckInput): DriftReport {
  const context = normalize(input.contextText);
  const items = requiredItems(input.ledger).map(({ kind, text }) => ({
    kind,
    text,
    present: containsText(context, text) || (kind === 'artifact' && input.isFindable(text.trim())),
  }));
  const missing = items.filter((i) => !i.present);
  const total = items.reduce((sum, i) => sum + DRIFT_WEIGHTS[i.kind], 0);
  const present = items.reduce((sum, i) => sum + (i.present ? DRIFT_WEIGHTS[i.kind] : 0), 0);
  return { status: missing.length === 0 ? 'ALIGNED' : 'DRIFT_DETECTED', items, missing, confidence: total === 0 ? 1 : present / total };
}

function requiredItems(ledger: Ledger): { kind: DriftItemKind; text: string }[] {
  const artifacts = [
    ...ledger.tools.files.filter((f) => f.actions.some((a) => ARTIFACT_ACTIONS.has(a))).map((f) => f.path),
    ...ledger.artifacts,
  ];
  const candidates: { kind: DriftItemKind; text: string }[] = [
    ...(ledger.intent ? [{ kind: 'intent' as const, text: ledger.intent.text }] : []),
    ...ledger.goals.filter((g) => g.status === 'active').map((g) => ({ kind: 'goal' as const, text: g.text })),
    ...ledger.decisions.filter((d) => d.locked).map((d) => ({ kind: 'decision' as const, text: d.text })),
    ...(ledger.nextStep ? [{ kind: 'next' as const, text: ledger.nextStep.text }] : []),
    ...artifacts.map((text) => ({ kind: 'artifact' as const, text })),
  ];
  const seen = new Set<string>();
  return candidates.filter(({ kind, text }) => {
    const key = `${kind}:${normalize(text)}`;
    if (normalize(text) === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whitespace collapsed, case folded: how both sides are compared. */
function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function containsText(normalizedContext: string, text: string): boolean {
  const wanted = normalize(text);
  if (wanted.length <= WHOLE_MATCH_MAX_CHARS) return normalizedContext.includes(wanted);
  return normalizedContext.includes(wanted.slice(0, HEAD_TAIL_CHARS)) && normalizedContext.includes(wanted.slice(-HEAD_TAIL_CHARS));
}

/** Kinds in the order they are shown, with their heading and how one and several are named. */
const KIND_NAMES: readonly { kind: DriftItemKind; heading: string; one: string; many: string }[] = [
  { kind: 'intent', heading: 'Session intent', one: 'the session intent', many: 'the session intent' },
  { kind: 'goal', heading: 'Active goals', one: 'active goal', many: 'active goals' },
  { kind: 'decision', heading: 'Locked decisions', one: 'locked decision', many: 'locked decisions' },
  { kind: 'next', heading: 'Next step', one: 'the next step', many: 'the next step' },
  { kind: 'artifact', heading: 'Artifacts', one: 'artifact', many: 'artifacts' },
];

/** The heading of the reinsertion section. */
export const REINSERTION_HEADING = '### Restored after the drift check';

/** A Markdown section that puts the missing items back verbatim, grouped by kind; empty when none are missing. */
export function renderReinsertion(missing: readonly DriftItem[]): string {
  if (missing.length === 0) return '';
  const lines = [
    REINSERTION_HEADING,
    'These were missing from the context after compression and are put back word for word from the ledger.',
  ];
  for (const { kind, heading } of KIND_NAMES) {
    const texts = missing.filter((i) => i.kind === kind).map((i) => i.text);
    if (texts.length > 0) lines.push('', `**${heading}**`, ...texts.map((t) => `- ${t}`));
  }
  return lines.join('\n');
}

/** Below this confidence so much was lost that a fresh start is the better advice. */
export const FRESH_START_BELOW_CONFIDENCE = 0.5;
/** The intent is shown shortened to this many characters in the warning. */
const INTENT_SHOWN_CHARS = 300;

/** The drift warning in plain words; empty when the report is aligned. */
export function renderDriftWarning(report: DriftReport, intent: string): string {
  if (report.status === 'ALIGNED') return '';
  const counts = KIND_NAMES.flatMap(({ kind, one, many }) => {
    const n = report.missing.filter((i) => i.kind === kind).length;
    if (n === 0) return [];
    return [kind === 'intent' || kind === 'next' ? one : `${n} ${n === 1 ? one : many}`];
  });
  const shownIntent = intent.trim() === '' ? '(not recorded)' : shortenEnd(intent.trim(), INTENT_SHOWN_CHARS);
  const coreLost = report.missing.some((i) => i.kind === 'intent' || i.kind === 'decision');
  const recommendation =
    report.confidence < FRESH_START_BELOW_CONFIDENCE
      ? 'Much of what this session depends on was lost in compression. Check the items put back; ' +
        'if the answers stop making sense, start a fresh session from the latest checkpoint with /fresh.'
      : coreLost
        ? 'Check that the next answer still serves the original intent and keeps the locked decisions. ' +
          'If it does not, restate the goal or start a fresh session from the latest checkpoint with /fresh.'
        : 'Nothing to do unless the next answers go off track; if they do, restate the goal.';
  return [
    '⚠️ **Goal Drift Warning**',
    '',
    `**Detection:** After compression, ${report.missing.length} of the ${report.items.length} things this session depends on ` +
      `${report.missing.length === 1 ? 'was' : 'were'} missing from the context: ${joinWords(counts)}. ` +
      `Confidence: ${Math.round(report.confidence * 100)}%.`,
    `**Original Intent:** ${shownIntent}`,
    '',
    '**Recovery Action:**',
    'The missing items are put back into the context word for word from the ledger. ' +
      'The full conversation is still in the archive and can be searched with `ctx_recover`.',
    '',
    `**Recommendation:** ${recommendation}`,
  ].join('\n');
}

function joinWords(parts: readonly string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
