/**
 * What the deterministic summary reads from the conversation's own words: goal markers, decisions,
 * the current phase, the stated plan and the identifiers people mentioned. Only the text of user
 * and assistant messages counts; tool results and tool inputs are content from outside (a file, a
 * web page, a command's output) and must never lock a decision or set a goal.
 */
import type { Message } from '../types';
import { GOAL_MARKERS, type GoalMarker } from './summaryFormat';
import { oneLine, shortenEnd } from '../text/shorten';

/**
 * Longest fact kept, in characters.
 * @default 240 — a long sentence; anything longer is usually a paragraph that happens to match.
 */
export const MAX_FACT_CHARS = 240;

/**
 * Most decision-like sentences kept (the latest ones).
 * @default 40 — far more than a summary can show; the summary keeps the most recent that fit.
 */
export const MAX_DECISION_SENTENCES = 40;

/** Most identifiers kept, most recently mentioned first. @default 40 */
export const MAX_IDENTIFIERS = 40;

/** Most plan sentences taken from the last assistant message. @default 5 */
export const MAX_PLAN_SENTENCES = 5;

/** What user and assistant text says about the work. */
export interface ConversationFacts {
  /** Marker lines by marker, in conversation order, without the marker. */
  readonly markers: Readonly<Record<GoalMarker, readonly string[]>>;
  /** Decision-like sentences of the assistant ("I'll use…", "decided to…"), in order. */
  readonly decisions: readonly string[];
  /** First sentence of the last thing the assistant said. */
  readonly phase?: string;
  /** What the last assistant message said it would do next. */
  readonly plan: readonly string[];
  /** Code spans and file paths mentioned, most recent first. */
  readonly identifiers: readonly string[];
}

const MARKER_LINE = new RegExp(`^\\s*(?:[-*+]\\s+|\\d+[.)]\\s+)?\\**\\[(${GOAL_MARKERS.join('|')})\\]\\**:?\\s*(.*\\S)\\s*$`, 'i');
const DECISION_SENTENCE =
  /\b(?:I'll use|I will use|we'll use|we will use|let's use|I'll go with|we'll go with|going with|decided to|I decided|we decided|the decision is|instead of|chose to|opted (?:to|for)|settled on)\b/i;
const PLAN_SENTENCE = /^(?:next\b|now let me\b|now I'll\b|now I will\b|I'll\b|I will\b|let me\b|then\b|after that\b)/i;
const CODE_SPAN = /`([^`\n]{2,80})`/g;
const PATH_TOKEN = /(?:^|[\s("'])((?:~|\.{1,2})?\/?(?:[\w@.-]+\/)+[\w@.-]+\.[A-Za-z0-9]{1,8})(?=$|[\s)"',:;])/g;
const FENCE = /^\s*(?:```|~~~)/;

/** Reads the facts from the text of user and assistant messages. */
export function readConversationFacts(messages: readonly Message[]): ConversationFacts {
  const markers: Record<GoalMarker, string[]> = { GOAL: [], CHECKPOINT: [], DECISION: [], ARTIFACT: [], NEXT: [] };
  const decisions: string[] = [];
  const identifiers: string[] = [];
  let lastAssistantProse: string[] | undefined;

  for (const msg of messages) {
    if (msg.role !== 'user' && msg.role !== 'assistant') continue;
    const lines = proseLines(msg);
    for (const line of lines) {
      const marker = MARKER_LINE.exec(line);
      if (marker) {
        markers[marker[1].toUpperCase() as GoalMarker].push(shortenEnd(oneLine(marker[2]), MAX_FACT_CHARS));
        continue;
      }
      collectIdentifiers(line, identifiers);
      if (msg.role === 'assistant' && DECISION_SENTENCE.test(line)) {
        for (const sentence of sentences(line)) if (DECISION_SENTENCE.test(sentence)) decisions.push(shortenEnd(sentence, MAX_FACT_CHARS));
      }
    }
    if (msg.role === 'assistant' && lines.some((l) => l.trim().length > 0 && !MARKER_LINE.test(l))) lastAssistantProse = lines;
  }

  const lastSentences = (lastAssistantProse ?? []).filter((l) => !MARKER_LINE.test(l)).flatMap(sentences);
  return {
    markers,
    decisions: unique(decisions).slice(-MAX_DECISION_SENTENCES),
    ...(lastSentences.length > 0 ? { phase: shortenEnd(lastSentences[0], MAX_FACT_CHARS) } : {}),
    plan: unique(lastSentences.filter((s) => PLAN_SENTENCE.test(s)).map((s) => shortenEnd(s, MAX_FACT_CHARS))).slice(0, MAX_PLAN_SENTENCES),
    identifiers: unique(identifiers.reverse()).slice(0, MAX_IDENTIFIERS),
  };
}

/** The lines of a message's text blocks outside fenced code blocks: code is not a statement. */
function proseLines(msg: Message): string[] {
  const lines: string[] = [];
  for (const block of msg.blocks) {
    if (block.type !== 'text') continue;
    let inFence = false;
    for (const line of block.text.split('\n')) {
      if (FENCE.test(line)) inFence = !inFence;
      else if (!inFence) lines.push(line);
    }
  }
  return lines;
}

/** A line's sentences, each on one line, list bullets and emphasis stripped. */
function sentences(line: string): string[] {
  const text = oneLine(line.replace(/^\s*(?:[-*+>]\s+|\d+[.)]\s+|#+\s+)/, '').replace(/\*\*/g, ''));
  if (text.length === 0) return [];
  return text.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'([])/).filter((s) => s.length > 0);
}

function collectIdentifiers(line: string, into: string[]): void {
  for (const match of line.matchAll(CODE_SPAN)) into.push(match[1].trim());
  for (const match of line.matchAll(PATH_TOKEN)) into.push(match[1]);
}

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
