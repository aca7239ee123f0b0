/**
 * The agent's own words as candidates: every sentence the assistant wrote in a span (a short line whole), kept verbatim
 * and scored by what it carries, not by how it is phrased. What a sentence carries is read from its
 * distinctive terms (paths, identifiers, numbers, code, long words; see `terms`), weighed by how
 * rare each is in the span, and from where it stands: the first sentence of an assistant message
 * says what it is about to do, the answer that ends a turn says what came of it. No word list
 * decides: a plan written in French scores like one in English when it names the same things. Its
 * kind is its role (`sentenceRole`): what followed it, never its wording.
 */
import { proseLines, splitSentences, undecorated } from '../text/prose';
import { toolCalls, type Message } from '../types';
import { candidate, type Candidate } from './candidate';
import { namesWhatWasSeen, roleKind, sentenceRole, type SentenceRole } from './sentenceRole';
import type { ActedOn } from './proseFacts';
import { statementOf } from './statementCues';
import { inputValues, termsOf } from './terms';

/**
 * Scores of the agent's own words: below what a cue or a marker gives (0.55–1), so a summary's
 * few lines still go to what was stated outright, and above nothing, so the room a summary or the
 * free context leaves is filled with the sentences that name the most.
 */
export const OWN_WORDS_SCORES = {
  /** Every sentence with a few words starts here. */
  base: 0.25,
  /** Per unit of rare-term weight (a term said once in the span weighs 1, one said n times 1/n), up to {@link MAX_TERM_WEIGHT}. */
  perTermWeight: 0.07,
  /**
   * The first sentence of an assistant message: its lead, where an agent says what it found or is about to do
   * before the detail. Measured on the tuning split: 0.05 kept 232 of 248 probes, 0.1 234, 0.2 237, 0.3 235, 0.45 237.
   * Only a lead that names something (a path, a name, a figure, a rare word) gains it: one that names nothing ("Let's
   * look at that again.") announces the next step, and its few tokens would otherwise outrank a finding's line
   * (set3 502 → 503 of 540, validation unchanged).
   */
  opening: 0.2,
  /** A sentence of the answer that ends a turn: what came of it. */
  answer: 0.08,
  /** A sentence so long it is mostly explanation. */
  longPenalty: 0.05,
  /**
   * A sentence naming a term the tool results just before it hold: the agent's reading of what it
   * has just seen (`parse_row` is defined at line 212), in any phrasing and any language. Measured
   * on the tuning split: 0 kept 228 of 248 probes, 0.04 228, 0.08 229, 0.12 229, 0.2 230, 0.3 231, 0.5 232.
   */
  grounded: 0.3,
} as const;

/** Characters of the results before a message read for the terms they hold. @default 20,000 */
export const MAX_RESULT_CHARS_READ = 20_000;

/** Weight counted at most, terms, plain words and numbers together. @default 3 */
export const MAX_TERM_WEIGHT = 3;
/**
 * What a plain word of five letters or more weighs beside a distinctive term, before its rarity,
 * and at most how much plain words add: a sentence naming "exporter" and "flushes" once in the
 * span says something its neighbours do not, in any language. @default 0.25, at most 1.5
 */
export const PLAIN_WORD_WEIGHT = 0.25;
export const MAX_PLAIN_WORD_WEIGHT = 1.5;
/** What a number (`5000`, `2.1`, `3:04`) weighs, and how many count. @default 0.5, 2 */
export const NUMBER_WEIGHT = 0.5;
export const MAX_NUMBERS = 2;
const PLAIN_WORD = /\p{L}{5,}/gu;
const NUMBER = /(?<![\p{L}\d])\d+(?:[.,:]\d+)*(?![\p{L}\d])/gu;
/**
 * Characters up to which a line the agent wrote is one candidate, as written, rather than its sentences one by one:
 * a short line is the unit its writer gave it ("The index is rebuilt. Queries take 40 ms now."), and it is quoted whole.
 * The span's latest message with prose is the exception in a summary, which reads where the work stands and what
 * comes next from it, sentence by sentence, in sections of their own that a whole line would say again.
 * @default 160 — measured on the tuning split (set3, 540 probes): sentences alone kept 515, lines up to 120
 * characters 516, 160 518, 200 517, 240 517; set1 and set2 kept every probe at each.
 */
export const WHOLE_LINE_CHARS = 160;
/** Fewest words a sentence without a distinctive term needs to be a candidate. @default 5 */
export const MIN_PLAIN_WORDS = 5;
/** Words beyond which a sentence counts as long. @default 45 */
export const LONG_SENTENCE_WORDS = 45;
/**
 * Share of the facts asked for that one assistant message may give, the best kept, and at least
 * {@link MIN_OWN_WORDS_PER_MESSAGE}: a long write-up cannot crowd a summary's 40 facts, yet every
 * sentence of it can reach the larger selection behind the earlier lines.
 * @default 0.3, at least 12
 */
export const OWN_WORDS_MESSAGE_SHARE = 0.3;
export const MIN_OWN_WORDS_PER_MESSAGE = 12;

/** Where each message of the span stands. */
export interface OwnWordsSite {
  readonly messageId: string;
  readonly seq: number;
  /** True when a user message or the end of the conversation follows: the message is an answer. */
  readonly endsTurn: boolean;
  /** What the calls that follow the message name, and whether they change anything. */
  readonly actedOn?: ActedOn;
  /** The tool results just before the message, lower case; read from the span when absent. */
  readonly seen?: string;
}

interface Sentence {
  readonly text: string;
  readonly terms: readonly string[];
  /** Plain words of five letters or more, lower case, not among the terms. */
  readonly plain: readonly string[];
  readonly numbers: number;
  readonly words: number;
  readonly opening: boolean;
}

/**
 * The assistant sentences of `span` as candidates, scored by the information they carry; `sites[i]`
 * says where `span[i]` stands; `maxFacts` is how many facts the caller will keep; `asWritten`, whether the latest
 * message's short lines are whole too (see {@link WHOLE_LINE_CHARS}). Linear in the span's text.
 */
export function ownWordCandidates(
  span: readonly Message[],
  sites: readonly OwnWordsSite[],
  maxFacts: number,
  asWritten = false,
): Candidate[] {
  const perMessage = Math.max(MIN_OWN_WORDS_PER_MESSAGE, Math.ceil(maxFacts * OWN_WORDS_MESSAGE_SHARE));
  // The latest message the assistant wrote prose in says where the work stands and what comes next, which a summary
  // states in sections of their own: its lines are read sentence by sentence, as those sections read them, unless the
  // lines are for the earlier lines (`asWritten`), which show lines as written.
  let latest = asWritten ? -1 : span.length - 1;
  while (latest >= 0 && !(span[latest].role === 'assistant' && proseLines(span[latest]).some((l) => undecorated(l).length > 0))) latest--;
  const sentencesBy = span.map((msg, i) => (msg.role === 'assistant' ? sentencesOf(msg, i === latest ? 0 : WHOLE_LINE_CHARS) : []));
  const frequency = new Map<string, number>();
  for (const sentences of sentencesBy) {
    for (const s of sentences) for (const t of [...s.terms, ...s.plain]) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  }
  const found: Candidate[] = [];
  sentencesBy.forEach((sentences, i) => {
    const site = sites[i];
    const seen = sentences.length > 0 ? (site.seen ?? resultsBefore(span, i)) : '';
    const scored = sentences.flatMap((s) => {
      const role = sentenceRole(s.text, s.terms, { endsTurn: site.endsTurn, ...(site.actedOn ? { actedOn: site.actedOn } : {}), seen });
      const fact = sentenceCandidate(s, site, frequency, role, namesWhatWasSeen(s.text, s.terms, seen));
      return fact ? [fact] : [];
    });
    found.push(...scored.sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, perMessage));
  });
  return found;
}

/** The sentences of an assistant message; a line of at most `wholeLineChars` is one. */
function sentencesOf(msg: Message, wholeLineChars: number): Sentence[] {
  const sentences: Sentence[] = [];
  for (const line of proseLines(msg)) {
    const whole = undecorated(line);
    if (whole.length === 0) continue;
    const fromLine = sentences.length;
    // A short line is one sentence (see WHOLE_LINE_CHARS). A sentence too short to stand alone ("Done.", "Hi!") is kept
    // with the one after it on its line, or, last on its line, with the one before.
    let lead = '';
    for (const sentence of whole.length <= wholeLineChars ? [whole] : splitSentences(line)) {
      const text = lead ? `${lead} ${sentence}` : sentence;
      const read = readSentence(text, sentences.length === 0);
      if (read.terms.length === 0 && read.words < MIN_PLAIN_WORDS) {
        lead = text;
        continue;
      }
      lead = '';
      sentences.push(read);
    }
    const last = sentences.length - 1;
    if (lead && last >= fromLine) sentences[last] = readSentence(`${sentences[last].text} ${lead}`, sentences[last].opening);
  }
  return sentences;
}

function readSentence(text: string, opening: boolean): Sentence {
  const terms = termsOf(text);
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const plain = [...new Set(text.toLowerCase().match(PLAIN_WORD) ?? [])].filter((w) => !terms.includes(w));
  const numbers = Math.min(MAX_NUMBERS, (text.match(NUMBER) ?? []).filter((n) => n.length >= 2).length);
  return { text, terms, plain, numbers, words, opening };
}

/** The lower-cased text of the tool results just before `span[index]` (up to {@link MAX_RESULT_CHARS_READ}), with what their calls were given. */
export function resultsBefore(span: readonly Message[], index: number): string {
  let text = '';
  let j = index - 1;
  for (; j >= 0 && span[j].role === 'tool' && text.length < MAX_RESULT_CHARS_READ; j--) {
    for (const b of span[j].blocks) if (b.type === 'toolResult') text += `${b.content.slice(0, MAX_RESULT_CHARS_READ).toLowerCase()}\n`;
  }
  // The calls those results answer are part of what was seen: a sentence naming a call's subject reads what it came to.
  if (text.length > 0 && j >= 0 && span[j].role === 'assistant') {
    for (const call of toolCalls(span[j])) text += `${inputValues(call.input)}\n`;
  }
  return text;
}

function sentenceCandidate(
  s: Sentence,
  site: OwnWordsSite,
  frequency: ReadonlyMap<string, number>,
  role: SentenceRole,
  grounded: boolean,
): Candidate | undefined {
  const rarity = (t: string) => 1 / (frequency.get(t) ?? 1);
  const weight = Math.min(
    MAX_TERM_WEIGHT,
    s.terms.reduce((sum, t) => sum + rarity(t), 0) +
      Math.min(
        MAX_PLAIN_WORD_WEIGHT,
        s.plain.reduce((sum, w) => sum + PLAIN_WORD_WEIGHT * rarity(w), 0),
      ) +
      NUMBER_WEIGHT * s.numbers,
  );
  const score =
    OWN_WORDS_SCORES.base +
    OWN_WORDS_SCORES.perTermWeight * weight +
    (s.opening && s.terms.length > 0 ? OWN_WORDS_SCORES.opening : 0) +
    (site.endsTurn ? OWN_WORDS_SCORES.answer : 0) -
    (s.words > LONG_SENTENCE_WORDS ? OWN_WORDS_SCORES.longPenalty : 0) +
    (grounded ? OWN_WORDS_SCORES.grounded : 0);
  const fact = candidate(roleKind(role, statementOf(beforeLeadIn(s.text))?.kind), s.text, site, Math.round(score * 1000) / 1000);
  return fact && role === 'narration' ? { ...fact, narration: true } : fact;
}

/** A sentence that ends in a colon: it leads into what comes next (a call, a list, a block). */
const LEADS_IN = /[:：]\s*$/;

/**
 * A line of several sentences without the last when that one leads into what comes next ("Good, the binary is there.
 * Let's run the server:"): it announces the next step, so what the line states is said before it.
 */
function beforeLeadIn(text: string): string {
  const sentences = splitSentences(text);
  return sentences.length > 1 && LEADS_IN.test(sentences[sentences.length - 1]) ? sentences.slice(0, -1).join(' ') : text;
}
