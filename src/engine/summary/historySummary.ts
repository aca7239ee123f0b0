/**
 * The deterministic history summary: the summary structure (design §4.2) built from the messages themselves,
 * the guide, the record of what the tools did and the span's facts (decisions, errors with their
 * resolution, outcomes, names), fitted to the target by priority. Sections with nothing to say
 * are left out. The session intent stays, cut in the middle to a share of the target; a summary
 * shown beside the ledger leaves out what the ledger holds verbatim (the intent, goals, locked
 * decisions, progress marks and the next step) and gives the room to the facts.
 */
import type { ToolRecord } from '../model/ledgerTypes';
import { MARKER_SCORE, type Fact } from '../model/fact';
import { unique, type ConversationFacts } from './conversationFacts';
import { ESTIMATE_SAFETY, fitSections, PRIORITY, renderSkeleton, type CandidateLine, type FitSection } from './fitLines';
import { artifactsSection, criticalFactsSection, factCandidate, progressSection, resolvedByFacts, shownPhase } from './recordSections';
import { shortenMiddle } from '../text/shorten';
import { recoveryReferenceLines, sectionHeading, SUMMARY_TITLE } from './summaryFormat';
import type { SummaryBrief } from './summarizer';
import type { CountText } from '../model/countText';

/**
 * Intent shortening attempts before settling for a stub.
 * @default 8 — each attempt shrinks by the measured overshoot, so the first or second usually fits.
 */
export const MAX_INTENT_ATTEMPTS = 8;

/**
 * Most of a summary's target the session intent may take.
 * @default 0.2 — the ledger shows the intent verbatim in every request next to the checkpoints,
 * so a summary only needs enough of it to be read on its own; the rest of its room goes to what
 * the ledger does not hold. Without a cap, a long first request (an issue text, an inlined file)
 * fills every checkpoint and leaves no room for anything else.
 */
export const INTENT_SHARE_OF_TARGET = 0.2;

/**
 * Priorities of the recovery lines (archive, offloaded folder, range, how to search): how to search
 * stays whatever the target; the paths and the range, which the context message and the
 * checkpoint's heading already give, go before the facts do.
 */
const RECOVERY_LINE_PRIORITIES: readonly number[] = [PRIORITY.detail, PRIORITY.detail, PRIORITY.useful, PRIORITY.essential];

/** What the deterministic summary reads from a span's messages: it needs nothing else of them. */
export interface SpanReading {
  /** What its user and assistant messages say (see `conversationFacts.ts`). */
  readonly conversation: ConversationFacts;
  /** What its tools did. */
  readonly record: ToolRecord;
  /** Its facts (see `extractFacts`). */
  readonly facts: readonly Fact[];
}

/** Builds the summary of a span, from what was read of it, within `request.targetTokens`. */
export async function summarizeHistory(request: SummaryBrief, read: SpanReading, countText: CountText): Promise<string> {
  const { conversation: facts, record, facts: spanFacts } = read;
  const rest = otherSections(request, facts, record, spanFacts);
  const build = (intent: string) => [intentSection(request, intent, facts), ...rest];
  const shownIntent = request.besideLedger ? '' : request.guide.intent;
  const capped = await capIntent(shownIntent, Math.floor(request.targetTokens * INTENT_SHARE_OF_TARGET), countText);
  const intent = await fitIntent(capped, request.targetTokens, build, countText);
  const summary = await fitSections(SUMMARY_TITLE, build(intent), request.targetTokens, countText);
  if (facts.held.length === 0 || !onlyHeadings(summary)) return summary;
  // A span of nothing but a system prompt or attached instructions says what it held, by their first lines.
  return fitSections(SUMMARY_TITLE, [...build(intent), heldSection(facts.held)], request.targetTokens, countText);
}

/** True when a summary has no line under its headings. */
function onlyHeadings(summary: string): boolean {
  return summary.split('\n').every((line) => line.trim() === '' || line.startsWith('#'));
}

/** The opening lines of what a span held besides what was said, as references into the archive. */
function heldSection(held: readonly string[]): FitSection {
  return {
    heading: sectionHeading('Recovery References'),
    required: [],
    groups: [{ lines: held.map((line, i) => ({ text: `- In the archive: ${line}`, priority: PRIORITY.detail, rank: i })) }],
  };
}

/** The intent as it is when it takes at most `maxTokens`, or else cut in the middle to about that size. */
async function capIntent(intent: string, maxTokens: number, countText: CountText): Promise<string> {
  let tokens = await countText(intent);
  if (tokens <= maxTokens) return intent;
  let chars = Math.floor(maxTokens * (intent.length / Math.max(1, tokens)) * ESTIMATE_SAFETY);
  for (let attempt = 0; attempt < MAX_INTENT_ATTEMPTS && chars > 0; attempt++) {
    const shortened = shortenMiddle(intent, chars);
    tokens = await countText(shortened);
    if (tokens <= maxTokens) return shortened;
    chars = Math.floor(chars * (maxTokens / tokens) * ESTIMATE_SAFETY);
  }
  return shortenMiddle(intent, 0);
}

/** The intent as it is, or cut in the middle just enough for the headings and it to fit. */
async function fitIntent(intent: string, target: number, build: (intent: string) => FitSection[], countText: CountText): Promise<string> {
  const skeletonWith = (text: string) => renderSkeleton(SUMMARY_TITLE, build(text));
  let tokens = await countText(skeletonWith(intent));
  if (tokens <= target) return intent;
  const withoutIntent = await countText(skeletonWith(''));
  const charsPerToken = intent.length / Math.max(1, tokens - withoutIntent);
  let chars = Math.floor((target - withoutIntent) * charsPerToken * ESTIMATE_SAFETY);
  for (let attempt = 0; attempt < MAX_INTENT_ATTEMPTS && chars > 0; attempt++) {
    const shortened = shortenMiddle(intent, chars);
    tokens = await countText(skeletonWith(shortened));
    if (tokens <= target) return shortened;
    chars = Math.floor(chars * (target / tokens) * ESTIMATE_SAFETY);
  }
  return shortenMiddle(intent, 0);
}

/** The intent and the goals; nothing when the ledger beside the summary holds them. */
function intentSection(request: SummaryBrief, intent: string, facts: ConversationFacts): FitSection {
  const ledger = request.besideLedger === true;
  return {
    heading: sectionHeading('Session Intent'),
    required: ledger ? [] : [intent.length > 0 ? intent : '(not recorded)'],
    groups: ledger
      ? []
      : [
          {
            lines: unique([...request.guide.goals, ...facts.markers.GOAL]).map((goal) => ({
              text: `- [GOAL] ${goal}`,
              priority: PRIORITY.essential,
            })),
          },
        ],
  };
}

/** Every section after the intent: they do not change while the intent is fitted. */
function otherSections(request: SummaryBrief, facts: ConversationFacts, record: ToolRecord, spanFacts: readonly Fact[]): FitSection[] {
  const { guide } = request;
  const ledger = request.besideLedger === true;
  const resolved = resolvedByFacts(spanFacts);
  return [
    artifactsSection(record, ledger ? [] : facts.markers.ARTIFACT, spanFacts),
    decisionsSection(request, facts, spanFacts),
    progressSection(guide.progress, facts, record, ledger, resolved),
    criticalFactsSection(record, spanFacts, resolved, [shownPhase(facts) ?? ''], ledger),
    nextStepsSection(request, facts),
    {
      heading: sectionHeading('Recovery References'),
      required: [],
      groups: [
        {
          // Beside the ledger, the context's own heading says how to search and each checkpoint's heading
          // names its messages: the same four lines in every checkpoint would only take the room of the session's own.
          lines: ledger
            ? []
            : recoveryReferenceLines(request.references).map((text, i) => ({
                text,
                priority: RECOVERY_LINE_PRIORITIES[i] ?? PRIORITY.useful,
              })),
        },
        {
          lines: record.offloaded.map((entry, i) => ({
            text: `- Offloaded ${entry.toolName} result (${entry.callId}): ${entry.file}`,
            priority: PRIORITY.detail,
            rank: record.offloaded.length - i,
          })),
        },
      ],
    },
  ];
}

/**
 * Locked decisions and the `[DECISION]` lines of the conversation (unless the ledger beside the
 * summary holds them), then the decisions the span's facts read from what the assistant said and
 * did, the best first.
 */
function decisionsSection(request: SummaryBrief, facts: ConversationFacts, spanFacts: readonly Fact[]): FitSection {
  const ledger = request.besideLedger === true;
  const locked = ledger ? [] : unique(request.guide.decisions);
  const known = new Set(locked.map(decisionKey));
  const marked = ledger ? [] : unique(facts.markers.DECISION).filter((d) => !known.has(decisionKey(d)));
  marked.forEach((d) => known.add(decisionKey(d)));
  const stated = spanFacts.filter((f) => f.kind === 'decision' && f.score < MARKER_SCORE && !known.has(decisionKey(f.text)));
  const lines: CandidateLine[] = [
    ...locked.map((d) => ({ text: `[DECISION] ${d}`, priority: PRIORITY.essential })),
    ...marked.map((d, i) => ({ text: `[DECISION] ${d}`, priority: PRIORITY.essential, rank: marked.length - i })),
    ...stated.map((f) => ({ ...factCandidate(f), text: f.text })),
  ];
  return { heading: sectionHeading('Key Decisions'), required: [], groups: [{ numbered: true, lines }] };
}

/**
 * The latest `[NEXT]` lines and the guide's next step (the ledger's, when the summary is shown
 * beside it, is left out), then the last assistant message's stated plan.
 */
function nextStepsSection(request: SummaryBrief, facts: ConversationFacts): FitSection {
  const marked = unique([...facts.markers.NEXT].reverse());
  const ledgerNext = request.besideLedger ? request.guide.nextStep : undefined;
  const stated = unique([...(request.guide.nextStep && !request.besideLedger ? [request.guide.nextStep] : []), ...marked]).filter(
    (s) => ledgerNext === undefined || decisionKey(s) !== decisionKey(ledgerNext),
  );
  const known = new Set([...stated, ...(ledgerNext ? [ledgerNext] : [])].map(decisionKey));
  const plan = facts.plan.filter((p) => !known.has(decisionKey(p)));
  const lines: CandidateLine[] = [
    ...stated.map((s, i) => ({
      text: `[NEXT] ${s}`,
      priority: i === 0 ? PRIORITY.essential : PRIORITY.useful,
      rank: i,
      shortenable: false,
    })),
    // The plan is read from the sentences decisions are read from too: said once, as the decision.
    ...plan.map((p, i) => ({
      text: p,
      priority: stated.length > 0 ? PRIORITY.useful : PRIORITY.important,
      rank: i,
      shortenable: false,
      restates: true,
    })),
  ];
  return { heading: sectionHeading('Next Steps'), required: [], groups: [{ numbered: true, lines }] };
}

/** Compares decisions without their status suffix, case or spacing. */
function decisionKey(text: string): string {
  return text
    .replace(/\s*[-–—]\s*LOCKED\s*$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
