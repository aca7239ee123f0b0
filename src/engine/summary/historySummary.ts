/**
 * The deterministic history summary: the summary structure (design §4.2) built from the messages themselves,
 * the guide and the record of what the tools did, fitted to the target by priority. The session
 * intent and the headings always stay; the intent is cut in the middle to a share of the target,
 * since the ledger beside the checkpoints keeps it verbatim.
 */
import type { ToolRecord } from '../ledger/ledgerTypes';
import { readConversationFacts, unique, type ConversationFacts } from './conversationFacts';
import { ESTIMATE_SAFETY, fitSections, PRIORITY, recentFirst, renderSkeleton, type CandidateLine, type FitSection } from './fitLines';
import { artifactsSection, criticalFactsSection, progressSection } from './recordSections';
import { shortenMiddle } from '../text/shorten';
import { recoveryReferenceLines, sectionHeading, SUMMARY_TITLE } from './summaryFormat';
import type { CountText, SummaryRequest } from './summarizer';

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

/** Which recovery line is kept first when space is short: how to search, then the archive, the offloaded folder, the range. */
const RECOVERY_LINE_RANKS: readonly number[] = [1, 2, 3, 0];

/** Builds the summary of `request.messages` within `request.targetTokens`. */
export async function summarizeHistory(request: SummaryRequest, record: ToolRecord, countText: CountText): Promise<string> {
  const facts = readConversationFacts(request.messages);
  const build = (intent: string) => sectionsFor(request, intent, facts, record);
  const capped = await capIntent(request.guide.intent, Math.floor(request.targetTokens * INTENT_SHARE_OF_TARGET), countText);
  const intent = await fitIntent(capped, request.targetTokens, build, countText);
  return fitSections(SUMMARY_TITLE, build(intent), request.targetTokens, countText);
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

function sectionsFor(request: SummaryRequest, intent: string, facts: ConversationFacts, record: ToolRecord): FitSection[] {
  const { guide } = request;
  return [
    {
      heading: sectionHeading('Session Intent'),
      required: [intent.length > 0 ? intent : '(not recorded)'],
      groups: [
        {
          lines: unique([...guide.goals, ...facts.markers.GOAL]).map((goal) => ({
            text: `- [GOAL] ${goal}`,
            priority: PRIORITY.essential,
          })),
        },
      ],
      empty: '',
    },
    artifactsSection(record, facts.markers.ARTIFACT),
    decisionsSection(request, facts),
    progressSection(guide.progress, facts, record),
    criticalFactsSection(record, facts.identifiers),
    nextStepsSection(request, facts),
    {
      heading: sectionHeading('Recovery References'),
      required: [],
      groups: [
        {
          lines: recoveryReferenceLines(request.references).map((text, i) => ({
            text,
            priority: PRIORITY.essential,
            rank: RECOVERY_LINE_RANKS[i],
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
      empty: '- none recorded',
    },
  ];
}

/** Locked decisions, then `[DECISION]` lines of the conversation, then decision-like sentences, latest first. */
function decisionsSection(request: SummaryRequest, facts: ConversationFacts): FitSection {
  const locked = unique(request.guide.decisions);
  const known = new Set(locked.map(decisionKey));
  const marked = unique(facts.markers.DECISION).filter((d) => !known.has(decisionKey(d)));
  marked.forEach((d) => known.add(decisionKey(d)));
  const sentences = facts.decisions.filter((d) => !known.has(decisionKey(d)));
  const lines: CandidateLine[] = [
    ...locked.map((d) => ({ text: `[DECISION] ${d}`, priority: PRIORITY.essential })),
    ...marked.map((d, i) => ({ text: `[DECISION] ${d}`, priority: PRIORITY.essential, rank: marked.length - i })),
    ...recentFirst(sentences, (d) => d, PRIORITY.important, PRIORITY.useful, true),
  ];
  return { heading: sectionHeading('Key Decisions'), required: [], groups: [{ numbered: true, lines }], empty: '- none recorded' };
}

/** The latest `[NEXT]` lines and the guide's next step, then the last assistant message's stated plan. */
function nextStepsSection(request: SummaryRequest, facts: ConversationFacts): FitSection {
  const marked = unique([...facts.markers.NEXT].reverse());
  const stated = unique([...(request.guide.nextStep ? [request.guide.nextStep] : []), ...marked]);
  const known = new Set(stated.map(decisionKey));
  const plan = facts.plan.filter((p) => !known.has(decisionKey(p)));
  const lines: CandidateLine[] = [
    ...stated.map((s, i) => ({
      text: `[NEXT] ${s}`,
      priority: i === 0 ? PRIORITY.essential : PRIORITY.useful,
      rank: i,
      shortenable: true,
    })),
    ...plan.map((p, i) => ({ text: p, priority: stated.length > 0 ? PRIORITY.useful : PRIORITY.important, rank: i, shortenable: true })),
  ];
  return { heading: sectionHeading('Next Steps'), required: [], groups: [{ numbered: true, lines }], empty: '- none stated' };
}

/** Compares decisions without their status suffix, case or spacing. */
function decisionKey(text: string): string {
  return text
    .replace(/\s*[-–—]\s*LOCKED\s*$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
