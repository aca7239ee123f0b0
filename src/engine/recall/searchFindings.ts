/**
 * Where a search found what it looked for defined: of a search's hits, those that open the definition of a name the
 * search asked for (`rg -n "class Invoice|class Refund" billing` → `billing/models.py:14:class Invoice(Base):`). Such a
 * hit is the search's answer, the place the work goes on from; the other hits (calls, imports, mentions) are a run of
 * lines like any listing, which the earlier lines leave out. Kept word for word, with the place it was found at.
 */
import { candidate, type Candidate } from './candidate';
import { searchesFiles } from './diagnosticLines';
import type { ToolStep } from './toolSteps';
import { isSearchHit } from '../ledger/searchPrograms';
import { DEFINITION_KEYWORDS } from '../text/definitionKeywords';

/** Score of a definition a search found. @default 0.4 — as the definition of a file read that later work built on. */
export const SEARCH_FINDING_SCORE = 0.4;
/** Most definitions kept of one search. @default 3 */
export const MAX_SEARCH_FINDINGS = 3;
/** Longest hit taken, in characters: longer lines are data. @default 200 */
const MAX_FINDING_CHARS = 200;
/** Characters of a search's output read for its hits. @default 20000 */
const FINDING_SCAN_CHARS = 20_000;

/** A hit's place: `path:12:`, `12:` (a search of one file), `path:12:5:` (with the column). */
const HIT_PLACE = /^(?:(?:[A-Za-z]:)?[^\s:]+:)?\d+:(?:\d+:)?/;
/** The keywords that open a definition: an outline's, and those of constants, variables and traits. */
const DEFINING_WORDS = [...DEFINITION_KEYWORDS, 'const', 'let', 'var', 'val', 'trait', 'defp', 'object'];
/**
 * A line that opens a definition: up to three modifiers (`export default`, `pub(crate)`, `async`), a keyword, and the
 * name it defines, after a Go method's receiver (`func (s *Store) Save(`).
 */
const DEFINITION_OPENING = new RegExp(
  String.raw`^(?:[a-z]+(?:\([\w:]+\))?\s+){0,3}(?:${DEFINING_WORDS.join('|')})\s+(?:\([^)]*\)\s*)?([\p{L}_$][\p{L}\p{N}_$]*)`,
  'u',
);
/** The names a search's input may ask for: words of code, three characters or more. */
const CODE_WORD = /[\p{L}_$][\p{L}\p{N}_$]{2,}/gu;

/** The hits of a search step that define a name its input asks for, as artifacts, at most {@link MAX_SEARCH_FINDINGS}. */
export function searchFindings(step: ToolStep): Candidate[] {
  if (!step.ok || step.call === undefined || !searchesFiles(step)) return [];
  const asked = new Set(
    Object.values(step.call.input)
      .filter((v): v is string => typeof v === 'string')
      .flatMap((v) => v.match(CODE_WORD) ?? []),
  );
  if (asked.size === 0) return [];
  const where = { messageId: step.messageId, seq: step.seq };
  const found: Candidate[] = [];
  for (const raw of step.result.content.slice(0, FINDING_SCAN_CHARS).split('\n')) {
    if (found.length >= MAX_SEARCH_FINDINGS) break;
    const hit = raw.trimEnd();
    if (hit.length > MAX_FINDING_CHARS || !isSearchHit(hit)) continue;
    const place = HIT_PLACE.exec(hit);
    const defined = place === null ? undefined : DEFINITION_OPENING.exec(hit.slice(place[0].length).trim())?.[1];
    if (defined === undefined || !asked.has(defined)) continue;
    const fact = candidate('artifact', hit, where, SEARCH_FINDING_SCORE);
    if (fact && !found.some((f) => f.key === fact.key)) found.push(fact);
  }
  return found;
}
