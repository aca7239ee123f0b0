/**
 * A fact on one line, as a summary or the ledger shows it: a word for its kind, its text (which
 * holds its key), and for an error what it was about and how it ended.
 */
import { oneLine, shortenEnd } from '../text/shorten';
import type { Fact, FactKind } from '../model/fact';
import { holdsKey, matchForm } from './factKey';
import { keepingCause } from '../text/errorCause';
import { closedCut } from '../text/openValue';

/** The word a fact's line starts with, by kind. */
export const FACT_LABELS: Readonly<Record<FactKind, string>> = {
  request: 'Asked',
  decision: 'Decided',
  error: 'Error',
  outcome: 'Outcome',
  artifact: 'File',
  identifier: 'Name',
};

/** The label of an error message written in code: a line that raises it, which no run printed. */
export const IN_CODE_LABEL = 'Raised in code';

/**
 * Longest fact text on a line, in characters.
 * @default 160 — room for the key (at most 100) and what surrounds it.
 */
export const FACT_LINE_TEXT_CHARS = 160;
/** Longest error subject or resolution shown beside an error, in characters. @default 80 */
export const FACT_DETAIL_CHARS = 80;

/**
 * The fact's text cut to `maxChars`, never inside a value the cut would leave open (`closedCut`), or its key alone
 * when the cut would lose the key.
 */
export function compactText(fact: Fact, maxChars = FACT_LINE_TEXT_CHARS): string {
  if (fact.text.length <= maxChars) return fact.text;
  const cut = shortenEnd(fact.text, maxChars);
  const closed = closedKeeping(cut, fact.key);
  if (closed !== cut) return closed;
  if (holdsKey(matchForm(cut), fact.key)) return cut;
  const kept = keepingCause(fact.text, maxChars)?.text;
  return kept !== undefined && holdsKey(matchForm(kept), fact.key) ? kept : fact.key;
}

/** A cut text cut back before the value it leaves open (`closedCut`) when what remains still holds `key`; else as it is. */
export function closedKeeping(cut: string, key: string): string {
  const closed = closedCut(cut);
  return closed !== cut && holdsKey(matchForm(closed), key) ? closed : cut;
}

/**
 * "Label: text" ("Raised in code: …" for an error message read in code), with an error's subject and,
 * once it was resolved, how: "Error: … (`npm test`) — resolved: `npm test` succeeded when run again".
 * A line is written once and read later, so it never says an error is still open: the ledger's tool
 * record says where each error stands now.
 * The label is left out when the text already starts with it ("Error: …"); the subject and the
 * resolution are cut to `detailChars` each.
 */
export function factLine(fact: Fact, maxChars = FACT_LINE_TEXT_CHARS, detailChars = FACT_DETAIL_CHARS): string {
  const text = compactText(fact, maxChars);
  const label = fact.inCode === true ? IN_CODE_LABEL : FACT_LABELS[fact.kind];
  const labelled = text.toLowerCase().startsWith(`${label.toLowerCase()}:`) ? text : `${label}: ${text}`;
  if (fact.kind !== 'error') return labelled;
  const subject = fact.subject ? ` (\`${shortenEnd(oneLine(fact.subject), detailChars)}\`)` : '';
  // Resolved stays true; an open error may be fixed by the next call, and the ledger says where it stands now.
  const resolution = fact.resolution;
  const ending = resolution?.resolved === true ? ` — resolved${resolution.by ? `: ${shortenEnd(resolution.by, detailChars)}` : ''}` : '';
  return `${labelled}${subject}${ending}`;
}
