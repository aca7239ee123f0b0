/**
 * What an assistant sentence is, read from where it stands and what followed it: the answer that
 * ends a turn; in the middle of the work, a finding, which names what the results just before it
 * hold or what their calls were given (a name, a figure: the agent's reading of what it saw); a
 * decision, which the next calls carry out by acting on what it names (anything but reading a
 * file, a listing or a search: a command that acts, a write, a task handed to another agent); or narration,
 * which only announces a look, asks or reacts ("Let me check the subagent row:", "Does it copy the list?",
 * "Good, I understand the test patterns."). Words may raise a sentence's score; they never make narration a
 * decision.
 */
import type { FactKind } from '../model/fact';
import { containsTerm } from './terms';
import { statementOf } from './statementCues';

export type SentenceRole = 'answer' | 'decision' | 'finding' | 'narration';

/** Where an assistant message stands. */
export interface SentenceSite {
  /** True when a user message or the end of the conversation follows: the message is an answer. */
  readonly endsTurn: boolean;
  /** What the calls that follow the message name (lower case), and whether they only read files. */
  readonly actedOn?: { readonly text: string; readonly changes?: boolean; readonly readsOnly?: boolean };
  /** The tool results just before the message, lower case. */
  readonly seen: string;
}

/** A sentence that ends in a colon: it leads into what comes next. */
const LEADS_INTO_CALLS = /[:：]\s*$/;

/** A sentence that ends by asking. */
const ASKS = /[?？]\s*$/;

/** A number of two digits or more, as a sentence repeats one a result printed ("All 31 tests pass"). */
const FIGURE = /(?<![\p{L}\d.])\d{2,}(?:[.,:]\d+)*(?![\p{L}\d])/gu;

/** The role of a sentence with distinctive `terms` (see `termsOf`) at `site`. */
export function sentenceRole(sentence: string, terms: readonly string[], site: SentenceSite): SentenceRole {
  if (site.endsTurn) return 'answer';
  // A question in the middle of the work ("Does this change the caller's copy?") asks what the next calls will tell:
  // it decides nothing and found nothing yet.
  if (ASKS.test(sentence)) return 'narration';
  const acted = site.actedOn;
  // A sentence that leads into calls that change nothing ("Let me check how the view gets the user's id:"), or says it
  // will look before such calls ("Let's check which callers pass a list."), announces the look they take, whatever it
  // names of what was seen before.
  if (acted?.changes === false && (LEADS_INTO_CALLS.test(sentence) || statementOf(sentence)?.exploring === true)) return 'narration';
  if (namesWhatWasSeen(sentence, terms, site.seen)) return 'finding';
  return acted !== undefined && acted.readsOnly !== true && terms.some((t) => containsTerm(acted.text, t)) ? 'decision' : 'narration';
}

/** True when the sentence names a term or repeats a figure of `seen` (the results just before it, lower case). */
export function namesWhatWasSeen(sentence: string, terms: readonly string[], seen: string): boolean {
  return seen.length > 0 && (terms.some((t) => seen.includes(t)) || figures(sentence).some((f) => containsTerm(seen, f)));
}

/**
 * The kind of fact a sentence of this role is. Narration is kept as the agent's words among its
 * decisions' lines, and flagged, never labelled one. Any other sentence is what its words state
 * (`stated`, from `statementCues`; the agent saying something failed is a finding of its own, since
 * errors are the lines the tools printed), else what its role says: an answer or a finding is an
 * outcome, a sentence a change carries out a decision.
 */
export function roleKind(role: SentenceRole, stated?: FactKind): Extract<FactKind, 'decision' | 'outcome'> {
  if (role === 'narration') return 'decision';
  if (stated === 'decision' || stated === 'outcome') return stated;
  if (stated === 'error') return 'outcome';
  return role === 'decision' ? 'decision' : 'outcome';
}

function figures(sentence: string): string[] {
  return sentence.match(FIGURE) ?? [];
}
