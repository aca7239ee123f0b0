/**
 * Facts read from what people and the model wrote: marker lines, the user's requests, the
 * assistant's decisions, findings, results and failures, its headings, and the answer that ends
 * its turn. Tool results and tool inputs are never read here: outside content must not make
 * decisions.
 */
import { parseMarkers, type MarkerKind } from '../ledger/markers';
import { splitSentences, undecorated } from '../text/prose';
import { candidate, MAX_FACT_TEXT_CHARS, type Candidate } from './candidate';
import { MARKER_SCORE, type FactKind } from '../model/fact';
import type { FixStatement } from './errorResolution';
import { saysFixed, statementOf } from './statementCues';
import { containsTerm, termsOf } from './terms';
import { roleKind, sentenceRole } from './sentenceRole';
import { detailedErrorLinesOf, type ErrorLineWithDetail } from '../ledger/diagnosticForms';
import { namedErrorLine } from '../ledger/errorSummary';
import { memoizeByObject } from '../memo';
import { DIAGNOSTIC_SCORES } from './diagnosticLines';
import type { Message } from '../types';

/** Scores of what prose shows that is not a statement cue (see `statementCues`). */
export const PROSE_SCORES = {
  /** The first sentence of the span's first user message, and of any later one. */
  firstRequest: 0.8,
  request: 0.7,
  /** A later sentence of a user message that asks, orders or corrects. */
  askedAgain: 0.6,
  correction: 0.65,
  /** User text this long is mostly pasted content; its sentences score lower. */
  pasted: 0.5,
  heading: 0.45,
  /**
   * A title that names nothing (`How it works`, `What I changed`): it organizes an answer, and what it heads is the finding.
   * Measured on set3 at half and at a quarter of each session's input: 0.45 (as any title) kept 780 and 726 of 800, 0.3
   * 780 and 727, 0.2 780 and 726.
   */
  namelessHeading: 0.3,
  /** A title in capitals or flagged with a symbol (`🔴 **CRITICAL ISSUE FOUND**`): the writer marked it as important. */
  flaggedHeading: 0.6,
  /** A title naming a step of a plan (`Phase 2: …`, `Step 3 - …`): what the work is organised into. */
  planHeading: 0.55,
  /** The first sentence of the message that ends the assistant's turn: its answer. */
  answer: 0.6,
  /** A sentence that names what the next call then changes, whatever its wording or language. */
  planByAction: 0.45,
} as const;

/** What a plan gains when the next call carries it out: a change, or only a look. */
export const ACTED_ON_BONUS = { changes: 0.2, looks: 0.05 } as const;
/** Characters of user text beyond which it is taken as pasted content. @default 3000 */
export const PASTED_CHARS = 3000;
/** Most request sentences per user message. @default 3 */
export const MAX_REQUESTS_PER_MESSAGE = 3;
/** Most facts per assistant message from its sentences, the highest scores kept. @default 8 */
export const MAX_STATEMENTS_PER_MESSAGE = 8;

const MARKER_KINDS: Readonly<Record<MarkerKind, FactKind>> = {
  goal: 'request',
  decision: 'decision',
  next: 'decision',
  checkpoint: 'outcome',
  artifact: 'artifact',
};
/** How a request opens: asking for something or telling what to do. */
const REQUEST_OPENINGS = [
  'please',
  'can you',
  'could you',
  'would you',
  'make',
  'add',
  'fix',
  'remove',
  'delete',
  'create',
  'update',
  'change',
  'use',
  'implement',
  'write',
  'run',
  'check',
  'ensure',
  'keep',
  "let['’]s",
  'i want',
  'i need',
  'we need',
];
/** A question or an exclamation, a request, or what should be. */
const ASKING = new RegExp(
  [String.raw`[?？!！]\s*$`, String.raw`^(?:${REQUEST_OPENINGS.join('|')})\b`, String.raw`\b(?:should|must|need to|want)\b`].join('|'),
  'i',
);
const CORRECTING = /^(?:no\b|nope\b|actually\b|instead\b|wait\b|stop\b|don['’]t\b|do not\b|never\b|that['’]s (?:not|wrong))/i;
const MARKUP_LINE = /^\s*<[^>]+>.*<\/?[^>]+>\s*$|^\s*<\/?[\w-]+[^>]*>\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
/** A line opening with bold text, after a bullet or a symbol or two (`🔴 **Title**: …`). */
const BOLD_LEAD = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:[\p{So}\p{Sk}\uFE0F\u200D]+\s*)?\*\*([^*\n]{3,80}?)\*\*/u;
const MIN_TITLE_WORDS = 3;
/** A plan's step: `Phase 4.1: …`, `Step 2 - …`, `Stage 3 …`. */
const PLAN_STEP = /^(?:phase|step|stage|part|milestone)\s+\d+(?:\.\d+)*\b/i;
/** Two or more words, every letter a capital. */
const SHOUTED = /^(?=.*\p{Lu})[^\p{Ll}]*\p{Lu}[^\p{Ll}]*\s+[^\p{Ll}]*\p{Lu}[^\p{Ll}]*$/u;
/** A pictograph (🔴, ⚠️, ❗, 🚨…) on the line: how writers flag what matters. */
const FLAG_SYMBOL = /\p{Extended_Pictographic}/u;

/** Where the message's facts are placed, and what surrounds it. */
export interface ProseSite {
  readonly messageId: string;
  readonly seq: number;
}

/** Marker lines of a message's prose as facts of top score; the lines they were read from. */
function markerFacts(line: string, site: ProseSite): Candidate | undefined {
  const [marker] = parseMarkers(line);
  return marker ? candidate(MARKER_KINDS[marker.kind], marker.text, site, MARKER_SCORE) : undefined;
}

/**
 * The user's requests (from the prose lines of one user message, see `proseLines`): its first sentence, then sentences that
 * ask, order or correct, and its marker lines, of the lines the user wrote (`authored`, all lines when absent).
 */
export function userFacts(prose: readonly string[], site: ProseSite, first: boolean, authored?: ReadonlySet<string>): Candidate[] {
  // What a host put in the user's turn (an attached file, a reminder, its own instructions) is data: no marker of it
  // sets anything, and nothing in it is what the user asked.
  const lines = prose.filter((l) => !MARKUP_LINE.test(l) && authored?.has(l) !== false);
  const pasted = lines.reduce((n, l) => n + l.length, 0) > PASTED_CHARS;
  const facts: Candidate[] = [];
  let requests = 0;
  for (const line of lines) {
    const marked = markerFacts(line, site);
    if (marked) {
      facts.push(marked);
      continue;
    }
    for (const sentence of splitSentences(line)) {
      if (requests >= MAX_REQUESTS_PER_MESSAGE) break;
      const score =
        requests === 0
          ? first
            ? PROSE_SCORES.firstRequest
            : PROSE_SCORES.request
          : CORRECTING.test(sentence)
            ? PROSE_SCORES.correction
            : ASKING.test(sentence)
              ? PROSE_SCORES.askedAgain
              : undefined;
      if (score === undefined) continue;
      const fact = candidate('request', sentence, site, pasted ? Math.min(score, PROSE_SCORES.pasted) : score);
      if (fact) {
        facts.push(fact);
        requests++;
      }
    }
  }
  return facts;
}

/**
 * The error lines of what a host put in the user's turn (a terminal's last output, a tool's result written as user
 * text, the editor's problems), at most {@link MAX_HOST_ERRORS}: lines a diagnostic's form opens (`Error: …`,
 * `TypeError: …`, `src/a.ts:3:5: error …`), each an error of the session the user never typed. A line that only holds an
 * error's word is left: a host's instructions speak of errors too. Not so when the host's words alone answered the
 * assistant's last reply and sent it back to work (`refusedEnd`: a stop hook that will not let it finish): they are a
 * refusal, and the line that names an error in so many words (`Cannot exit with unstaged changes.`) is what it refused on.
 */
export function hostErrorFacts(msg: Message, site: ProseSite, refusedEnd = false): Candidate[] {
  const lines = hostErrorLines(msg);
  const refusal = refusedEnd && lines.length === 0 ? namedErrorLine(injectedText(msg)) : undefined;
  const all = refusal === undefined ? lines : [{ text: refusal }];
  return all.flatMap((line) => candidate('error', line.text, site, DIAGNOSTIC_SCORES.wentOn, {}, line.detail) ?? []);
}

/** The text a host put in a user turn, its blocks joined. */
function injectedText(msg: Message): string {
  return msg.blocks.flatMap((b) => (b.type === 'text' && b.injected === true ? [b.text] : [])).join('\n');
}

/** A user message's host error lines, read once per message: every summary and recall check of a span reads them again. */
const hostErrorLines = memoizeByObject((msg: Message): readonly ErrorLineWithDetail[] => {
  const injected = injectedText(msg);
  return injected.length === 0 ? [] : detailedErrorLinesOf(injected, MAX_HOST_ERRORS, OPENED_BY_A_FORM);
});

/** Error lines read from a host's text in one user turn. @default 3 */
export const MAX_HOST_ERRORS = 3;
/** How plainly a line must read as a diagnostic when a host wrote it: a diagnostic's form opens it. */
const OPENED_BY_A_FORM = 3;

/** What the assistant's next calls name: their input values, lower case, and whether they change anything. */
export interface ActedOn {
  readonly text: string;
  readonly changes: boolean;
  /** True when every call only reads a file: the agent looked, and did nothing. */
  readonly readsOnly?: boolean;
}

/** What surrounds an assistant message. */
export interface AssistantContext {
  /** The calls of this message, or else of the next assistant message. */
  readonly actedOn?: ActedOn;
  /** True when a user message or the end of the conversation follows: the message is an answer. */
  readonly endsTurn: boolean;
  /** The tool results just before the message, lower case (see `resultsBefore`). */
  readonly seen?: string;
  /** The lines the assistant wrote (see `authoredProseLines`); a marker counts only there. All lines when absent. */
  readonly authored?: ReadonlySet<string>;
}

/**
 * The assistant's marker lines, headings and the sentences that state something (see
 * `statementOf`), a plan raised when the next call carries it out; the first sentence of an answer.
 * Sentences saying something was fixed go to `fixes`.
 */
export function assistantFacts(prose: readonly string[], site: ProseSite, context: AssistantContext, fixes: FixStatement[]): Candidate[] {
  const marked: Candidate[] = [];
  const stated: Candidate[] = [];
  let answered = !context.endsTurn;
  prose.forEach((line, at) => {
    const marker = markerFacts(line, site);
    if (marker) {
      if (context.authored?.has(line) !== false) marked.push(marker);
      return;
    }
    const title = titleOf(line);
    if (title !== undefined) {
      const fact = titleFact(title, line, site);
      if (fact) stated.push({ ...fact, text: undecorated(line) });
    }
    // A heading is no sentence of an answer ("## Summary" is not what came of the turn).
    if (HEADING.test(line)) return;
    const sentences = splitSentences(line);
    sentences.forEach((sentence, i) => {
      if (saysFixed(sentence)) fixes.push({ seq: site.seq, messageId: site.messageId, text: sentence, terms: termsOf(sentence) });
      // A sentence that leads into the list under it ("I'll:", "The fix is to:") says what the list says; it is still
      // known by its own words, which stand as written.
      const said = i === sentences.length - 1 ? withListItems(sentence, prose, at) : sentence;
      // An answer that opens with a word alone ("Done.", "Perfect!") says what it came to in the sentence after it.
      const saysSomething = wordsIn(sentence) >= MIN_ANSWER_WORDS;
      const fact =
        sentenceFact(sentence, site, context) ??
        (answered || !saysSomething ? undefined : candidate('outcome', sentence, site, PROSE_SCORES.answer));
      if (fact) stated.push(said === sentence ? fact : { ...fact, text: said });
      answered ||= saysSomething;
    });
  });
  const best = stated.sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, MAX_STATEMENTS_PER_MESSAGE);
  return [...marked, ...best];
}

/** Fewest words of the sentence taken as an answer: one word alone is an exclamation, not what the turn came to. @default 2 */
export const MIN_ANSWER_WORDS = 2;

/** The words of `text`: runs of letters or digits. */
function wordsIn(text: string): number {
  return text.match(WORD)?.length ?? 0;
}
const WORD = /[\p{L}\p{N}]+/gu;

/** A list item line: a bullet or a number before its text. */
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S/;
const LEADS_IN = /[:：]\s*$/;

/**
 * `sentence`, and when it leads into a list (it ends with a colon and list items follow its line), the items after it,
 * joined, as far as a fact's text goes (`MAX_FACT_TEXT_CHARS`): the lead-in alone says only that something follows.
 */
function withListItems(sentence: string, prose: readonly string[], at: number): string {
  if (!LEADS_IN.test(sentence) || !LIST_ITEM.test(prose[at + 1] ?? '')) return sentence;
  let text = sentence;
  for (let next = at + 1; next < prose.length && LIST_ITEM.test(prose[next]); next++) {
    const item = undecorated(prose[next]);
    if (text.length + item.length + 2 > MAX_FACT_TEXT_CHARS) break;
    text += `${text === sentence ? ' ' : '; '}${item}`;
  }
  return text;
}

/**
 * A sentence's fact: its kind is its role (`sentenceRole`: what followed it), its score what its
 * cue words give, raised when the next call carries it out; a plan told by the action alone.
 */
function sentenceFact(sentence: string, site: ProseSite, context: AssistantContext): Candidate | undefined {
  const statement = statementOf(sentence);
  const actedOn = context.actedOn;
  const terms = termsOf(sentence);
  const role = sentenceRole(sentence, terms, { endsTurn: context.endsTurn, ...(actedOn ? { actedOn } : {}), seen: context.seen ?? '' });
  if (statement === undefined) return role === 'decision' ? candidate('decision', sentence, site, PROSE_SCORES.planByAction) : undefined;
  const carried = actedOn !== undefined && terms.some((t) => containsTerm(actedOn.text, t));
  const bonus = statement.kind === 'decision' && carried ? (actedOn.changes ? ACTED_ON_BONUS.changes : ACTED_ON_BONUS.looks) : 0;
  const fact = candidate(roleKind(role, statement.kind), sentence, site, Math.min(0.95, statement.score + bonus));
  return fact && role === 'narration' ? { ...fact, narration: true } : fact;
}

/**
 * A title as a fact: a step of a plan is a decision; a title the writer flagged (in capitals, or
 * with a symbol before or after it) is a finding that counts more than a plain one.
 */
function titleFact(title: string, line: string, site: ProseSite): Candidate | undefined {
  if (PLAN_STEP.test(title)) return candidate('decision', title, site, PROSE_SCORES.planHeading);
  const flagged = SHOUTED.test(title) || FLAG_SYMBOL.test(line);
  const plain = termsOf(title).length > 0 ? PROSE_SCORES.heading : PROSE_SCORES.namelessHeading;
  return candidate('outcome', title, site, flagged ? PROSE_SCORES.flaggedHeading : plain);
}

/** The title of a heading line or of a line that opens with bold text, when it has a few words. */
function titleOf(line: string): string | undefined {
  const match = HEADING.exec(line) ?? BOLD_LEAD.exec(line);
  if (!match) return undefined;
  const title = match[1]
    .replace(/\*\*/g, '')
    .replace(/[:：]\s*$/, '')
    .trim();
  // A pictograph before a title (`📁 Project Structure`) decorates it: only words with letters or digits count.
  const words = title.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return words >= MIN_TITLE_WORDS || termsOf(title).length > 0 ? title : undefined;
}
