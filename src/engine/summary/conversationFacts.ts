/**
 * What the deterministic summary reads from the conversation's own words: goal markers, the
 * current phase and the stated plan (decisions, errors, outcomes and names come from the span's
 * facts, see `recall/extractFacts`). Only the text of user
 * and assistant messages counts; tool results and tool inputs are content from outside (a file, a
 * web page, a command's output) and must never lock a decision or set a goal.
 */
import type { Message } from '../types';
import { GOAL_MARKERS, type GoalMarker } from './summaryFormat';
import { authoredLineSet, proseLines, splitSentences } from '../text/prose';
import { oneLine, shortenEnd } from '../text/shorten';
import { memoizeByObject } from '../memo';
import { termsOf } from '../recall/terms';

/**
 * Longest fact kept, in characters.
 * @default 240 — a long sentence; anything longer is usually a paragraph that happens to match.
 */
export const MAX_FACT_CHARS = 240;

/** Most plan sentences taken from the last assistant message. @default 5 */
export const MAX_PLAN_SENTENCES = 5;

/** What user and assistant text says about the work. */
export interface ConversationFacts {
  /** Marker lines by marker, in conversation order, without the marker. */
  readonly markers: Readonly<Record<GoalMarker, readonly string[]>>;
  /** First sentence of the last thing the assistant said. */
  readonly phase?: string;
  /** What the assistant last said it would do next: the plan of the latest assistant message that states one. */
  readonly plan: readonly string[];
  /** The opening lines of what the span held besides what was said: system messages and attached context. */
  readonly held: readonly string[];
}

const MARKER_LINE = new RegExp(`^\\s*(?:[-*+]\\s+|\\d+[.)]\\s+)?\\**\\[(${GOAL_MARKERS.join('|')})\\]\\**:?\\s*(.*\\S)\\s*$`, 'i');
const PLAN_SENTENCE = /^(?:next\b|now let me\b|now I'll\b|now I will\b|I'll\b|I will\b|let me\b|then\b|after that\b)/i;
/** A cheap test before a line is cut into sentences: could one of them state a plan? */
const PLAN_START = /^(?:next|now|I'll|I will|let me|then|after that)\b/i;
const PLAN_ANYWHERE = /[.!?]\s+(?:next|now|I'll|I will|let me|then|after that)\b/i;

/** Reads the facts from the text of user and assistant messages. */
export function readConversationFacts(messages: readonly Message[]): ConversationFacts {
  return conversationFactsOf(saidAfter(NOTHING_SAID, messages));
}

/** The facts of what a run of messages said. */
export function conversationFactsOf(said: SpanSaid): ConversationFacts {
  const { markers, lastProse, lastPlan, held } = said;
  const lastSentences = (lastProse ?? []).filter((l) => !MARKER_LINE.test(l)).flatMap((line) => splitSentences(line));
  return {
    markers,
    ...(lastSentences.length > 0 ? { phase: shortenEnd(openingStatement(lastSentences), MAX_FACT_CHARS) } : {}),
    plan: lastPlan,
    held,
  };
}

/** Fewest words the phase's sentence needs to stand alone; a shorter one ("Great!") is read with the next. @default 5 */
const MIN_PHASE_WORDS = 5;

/** The first sentence, with the ones after it while it is too short to say anything alone. */
function openingStatement(sentences: readonly string[]): string {
  let statement = sentences[0];
  for (let i = 1; i < sentences.length && statement.split(/\s+/).length < MIN_PHASE_WORDS; i++) statement = `${statement} ${sentences[i]}`;
  return statement;
}

/**
 * What a run of messages says, in a form that goes on: what the next messages say adds to it. The
 * merged checkpoint's span, read again at every compression, keeps it instead of its messages.
 */
export interface SpanSaid {
  readonly markers: Readonly<Record<GoalMarker, readonly string[]>>;
  /** The prose lines of the last message with prose. */
  readonly lastProse?: readonly string[];
  /** The plan of the last message that states one. */
  readonly lastPlan: readonly string[];
  /** See {@link ConversationFacts.held}: the first {@link MAX_HELD}. */
  readonly held: readonly string[];
}

const noMarkers = (): Record<GoalMarker, string[]> => ({ GOAL: [], CHECKPOINT: [], DECISION: [], ARTIFACT: [], NEXT: [] });

/** What no message said yet: where reading a span starts. */
export const NOTHING_SAID: SpanSaid = { markers: noMarkers(), lastPlan: [], held: [] };

/**
 * Most opening lines kept of what a span held besides what was said, the first ones (the system prompt, the
 * instructions attached first). @default 6
 */
export const MAX_HELD = 6;
/** Longest such line, in characters. @default 120 */
const MAX_HELD_CHARS = 120;

/** What `before` said, then the messages: a span that grew at its end goes on from what its start said. */
export function saidAfter(before: SpanSaid, messages: readonly Message[]): SpanSaid {
  const added = noMarkers();
  let lastProse: readonly string[] | undefined;
  let lastPlan: readonly string[] = [];
  const held = [...before.held];
  for (const msg of messages) {
    if (held.length < MAX_HELD) held.push(...heldIn(msg));
    if (msg.role !== 'user' && msg.role !== 'assistant') continue;
    const said = saidIn(msg);
    for (const [marker, text] of said.markers) added[marker].push(text);
    if (!said.prose) continue;
    lastProse = said.prose;
    const plan = planIn(said.prose);
    if (plan.length > 0) lastPlan = plan;
  }
  const markers = noMarkers() as Record<GoalMarker, readonly string[]>;
  for (const marker of GOAL_MARKERS) markers[marker] = joined(before.markers[marker], added[marker]);
  return {
    markers,
    ...((lastProse ?? before.lastProse) ? { lastProse: lastProse ?? before.lastProse } : {}),
    lastPlan: lastPlan.length > 0 ? lastPlan : before.lastPlan,
    held: held.length === before.held.length ? before.held : unique(held).slice(0, MAX_HELD),
  };
}

/** The first line of each system text and each attached (injected) text of a message: what it held beside what was said. */
const heldIn = memoizeByObject((msg: Message): readonly string[] => {
  const lines: string[] = [];
  for (const block of msg.blocks) {
    if (block.type !== 'text' || !(msg.role === 'system' || (msg.role === 'user' && block.injected === true))) continue;
    const first = block.text.split('\n', 20).find((line) => line.trim().length > 0);
    if (first !== undefined) lines.push(shortenEnd(oneLine(first.trim()), MAX_HELD_CHARS));
  }
  return lines;
});

function joined(before: readonly string[], added: readonly string[]): readonly string[] {
  return added.length === 0 ? before : before.length === 0 ? added : [...before, ...added];
}

/** What one message says: its marker lines, and its prose lines when an assistant says more than markers. */
interface Said {
  readonly markers: readonly (readonly [GoalMarker, string])[];
  readonly prose?: readonly string[];
}

/**
 * Read once per message: aging summarizes the oldest, merged checkpoint's growing span again on
 * every compression, and its messages do not change.
 */
const saidIn = memoizeByObject((msg: Message): Said => {
  const lines = proseLines(msg);
  const markers: [GoalMarker, string][] = [];
  // Markers count only in what the author wrote; an attached file's marker lines are data.
  const authored = authoredLineSet(msg);
  for (const line of lines) {
    if (authored?.has(line) === false) continue;
    const marker = MARKER_LINE.exec(line);
    if (marker) markers.push([marker[1].toUpperCase() as GoalMarker, shortenEnd(oneLine(marker[2]), MAX_FACT_CHARS)]);
  }
  const saysMore = msg.role === 'assistant' && lines.some((l) => l.trim().length > 0 && !MARKER_LINE.test(l));
  return saysMore ? { markers, prose: lines } : { markers };
});

const planIn = memoizeByObject((lines: readonly string[]) => planOf(lines));

/** The plan sentences of a message's prose lines. */
function planOf(lines: readonly string[]): string[] {
  const said = lines.filter(
    (l) =>
      (!MARKER_LINE.test(l) && PLAN_START.test(l.trimStart().replace(/^(?:[-*+>]\s+|\d+[.)]\s+|#+\s+|\*\*)+/, ''))) ||
      PLAN_ANYWHERE.test(l),
  );
  const plan = said.flatMap((line) => splitSentences(line)).filter((s) => PLAN_SENTENCE.test(s) && !introducesOnly(s));
  return unique(plan.map((s) => shortenEnd(s, MAX_FACT_CHARS))).slice(0, MAX_PLAN_SENTENCES);
}

/**
 * A sentence that only introduces what follows it: short, ending on a colon, naming nothing and no
 * figure ("I will replace:", "Let me change it to:"). What it announces is the block after it, which
 * a summary does not keep.
 */
function introducesOnly(sentence: string): boolean {
  return (
    INTRODUCES.test(sentence) &&
    sentence.split(/\s+/).length <= MAX_INTRODUCING_WORDS &&
    !/\d/.test(sentence) &&
    termsOf(sentence).length === 0
  );
}
const INTRODUCES = /:\s*$/;
/** Most words of a sentence that only introduces: an opener, a verb, what it acts on and a preposition ("Let me change it to:"). @default 6 */
const MAX_INTRODUCING_WORDS = 6;

/** The items without repeats (compared case-insensitively), first occurrence kept. */
export function unique(items: readonly string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
