/**
 * Earlier lines, word for word (design §4.1): the best lines of the summarized messages that no
 * checkpoint holds, kept in a pool and shown in the room a rebase gives them, a share of the budget
 * counted like any part of the context. They are chosen at the rebase and sent unchanged until the
 * next one, so every request of the stretch reads them from the prompt cache. What a checkpoint's
 * few hundred tokens cannot hold still reaches the model.
 */
import type { EarlierLine } from '../model/earlierLine';
import type { Fact, FactKind } from '../model/fact';
import { matchForm } from '../facts/factKey';
import { memoizeByObject } from '../memo';
import { HeldLines } from './heldLines';
import { compactText, factLine } from '../facts/factLines';
import { maskSecrets } from '../text/secrets';
import { ownCopy } from '../text/ownCopy';
import { MAX_FACT_TEXT_CHARS } from '../recall/candidate';
import { KIND_SHARES } from '../recall/selectFacts';
import { DEFAULT_BUDGET_CEILING_TOKENS } from '../budget';

/** The heading of the lines shown. */
export const EARLIER_LINES_HEADING = '## Earlier, word for word';
const EARLIER_LINES_NOTE = 'Lines of the summarized messages as they were written, shown while the context has room for them.';

/**
 * The room the earlier lines get at a rebase, as a share of the budget: chosen once and sent unchanged until the next
 * rebase (a cache read per request), counted like any part of the context.
 * @default 0.3 — these lines hold far more of what a session came to for their tokens than the ledger's tool record
 * (110 facts in 100,000 tokens on the tuning splits, the record's commands, files and offloaded results 6). Measured
 * on the tuning split set3 at half and at a quarter of each session's input, and priced at a 60,000-token window:
 * 0.22 kept 779 and 708 of 800 facts at 0.897× a plain compaction's priced input; 0.26 777 and 713 at 0.906×; 0.3
 * 780 and 724 at 0.916×; 0.34 779 and 727 at 0.916×; 0.38 779 and 729 at 0.927×. Small sessions gain most: in a
 * budget of a few thousand tokens the ledger and the checkpoints leave the lines little room of their own.
 */
export const EARLIER_LINES_SHARE = 0.3;
/**
 * The share of that room that lines a tool printed may take (the ends of a command's output; content quoted from a
 * file, within its own share); the rest holds only the facts of the summarized messages, which rank first. A
 * diagnostic a tool printed (an error's line, wherever it stood in the output) is an error as much as a fact is, and
 * takes the room as facts do: measured on the tuning split, set3 errors 106 → 109 of 118 kept, the whole split 498 →
 * 501 of 540, with the room as it was.
 * @default 0.75 — with content quoted from files within {@link EARLIER_CONTENT_SHARE}: on the tuning splits and the
 * prompt-cache benchmark, set3 524 → 525 of 540 kept, tokens sent 0.997× → 0.991× a plain compaction's, priced input
 * 0.921× → 0.913×. Half the room with content up to all of it, as before, showed content that held no fact of any
 * split; the whole room for the printed lines keeps as many facts and sends more.
 */
export const EARLIER_PRINTED_SHARE = 0.75;
/**
 * The share of the room that content quoted under what it is of may take (the rest of an offloaded result, a file as
 * read earlier): it is ranked after every other line and fills a section that the other lines leave nearly empty, as
 * in a session whose large results went to files; in the final contexts of the tuning splits it held no fact that
 * nothing else held, so it no longer fills every room the printed lines leave.
 * @default 0.25
 */
export const EARLIER_CONTENT_SHARE = 0.25;
/**
 * Most tokens the pool keeps, as a share of the budget; the lowest-scored lines go first.
 * @default 0.5 — more than the room a context ever has for them right after a checkpoint. Measured on
 * the tuning split of 55 sessions: 0.35 kept 320 of 346 probes (errors 54 of 61: diagnostic lines
 * left the pool), 0.5 324, 0.7 323. In a 1M-token window the pool is most of what the live set
 * holds beyond the live context (32,000 lines at 10,000 messages).
 */
export const EARLIER_POOL_SHARE = 0.5;
/**
 * Most tokens the pool keeps, whatever the budget: the pool of a budget at the default ceiling
 * (`DEFAULT_BUDGET_CEILING_TOKENS`). Free room beyond it in a larger window is left free rather than
 * filled with old lines, which every request would pay for, and a 1M-token window's pool stays the
 * size of a 200k one's. Below that budget the share decides.
 */
export const EARLIER_POOL_MAX_TOKENS = Math.floor(DEFAULT_BUDGET_CEILING_TOKENS * EARLIER_POOL_SHARE);

/** The most tokens the pool keeps in a budget (see {@link EARLIER_POOL_SHARE} and {@link EARLIER_POOL_MAX_TOKENS}). */
export function earlierPoolTokensFor(budget: number): number {
  return Math.min(EARLIER_POOL_MAX_TOKENS, Math.floor(budget * EARLIER_POOL_SHARE));
}

/**
 * Fewest tokens of room worth a section: less than a heading and a couple of lines is not shown.
 * @default 100
 */
export const MIN_EARLIER_ROOM_TOKENS = 100;

/**
 * `pool` with the lines of `facts` it does not hold yet, then the lowest-scored lines taken out
 * (the latest first among equals) until it is at most `maxTokens`. Lines keep the order they came in.
 * Lines of an offloaded file's content are added only while the pool's content lines stay within
 * `maxContentTokens`: they are there to fill the room a request has now, and a session of many large
 * results would otherwise count and rank thousands of lines that are never shown.
 */
export async function addEarlierLines(
  pool: readonly EarlierLine[],
  facts: readonly Fact[],
  maxTokens: number,
  countText: (text: string) => Promise<number>,
  maxContentTokens = Number.POSITIVE_INFINITY,
): Promise<readonly EarlierLine[]> {
  const heldByForm = new Map(pool.map((l) => [matchForm(l.key), l]));
  const known = new Set(heldByForm.keys());
  const replaced = new Map<EarlierLine, EarlierLine>();
  let order = pool.reduce((last, l) => Math.max(last, l.order), 0);
  const added: EarlierLine[] = [];
  const headingTokens = new Map<string, number>();
  let contentTokens = 0;
  let otherTokens = 0;
  for (const l of pool) {
    if (l.from === undefined) otherTokens += l.tokens;
    else contentTokens += l.tokens;
  }
  for (const fact of facts) {
    // The ledger keeps every user message verbatim: a request needs no line of its own.
    if (fact.kind === 'request') continue;
    // Content lines never push the pool over its size either: they would be the first taken out, and added again.
    if (fact.from !== undefined && contentTokens >= Math.min(maxContentTokens, maxTokens - otherTokens)) continue;
    const form = matchForm(fact.key);
    if (known.has(form)) {
      // A line an edit took out stands in for the pool's line that said the same file held it.
      const held = fact.takenOut !== undefined ? heldByForm.get(form) : undefined;
      if (held !== undefined && held.from === undefined && held.text.includes(` ${fact.takenOut}: `) && !replaced.has(held)) {
        const text = maskSecrets(`- ${ownLine(fact)}`);
        const tokens = await countText(`${text}\n`);
        otherTokens += tokens - held.tokens;
        replaced.set(held, { ...held, text: ownCopy(text), kind: fact.kind, score: fact.score, tokens });
      }
      continue;
    }
    known.add(form);
    // What the context shows is masked, as an offloaded result's preview is; the archive keeps the text as it was.
    const text = maskSecrets(fact.from === undefined ? `- ${ownLine(fact)}` : quoted(fact.text));
    // Counted with its line break, as the section joins it: never less than its share of the section counted whole.
    const tokens = await countText(`${text}\n`);
    let from = {};
    if (fact.from !== undefined) {
      const heading = contentHeading(fact);
      const fromTokens = headingTokens.get(heading) ?? (await countText(heading)) + 2;
      headingTokens.set(heading, fromTokens);
      from = { from: fact.from, fromTokens, ...(fact.fromKind !== undefined ? { fromKind: fact.fromKind } : {}) };
      contentTokens += tokens;
    } else {
      otherTokens += tokens;
    }
    added.push({
      // Own copies: a fact's key is often a slice of a whole tool output, which the pool would keep alive.
      text: ownCopy(text),
      key: ownCopy(fact.key),
      kind: fact.kind,
      score: fact.score,
      tokens,
      order: ++order,
      ...(fact.printed ? { printed: true } : {}),
      ...from,
    });
  }
  const kept = replaced.size === 0 ? pool : pool.map((l) => replaced.get(l) ?? l);
  if (added.length === 0) return kept;
  const all = [...kept, ...added];
  let total = all.reduce((sum, l) => sum + l.tokens, 0);
  if (total <= maxTokens) return all;
  const out = new Set<EarlierLine>();
  for (const line of [...all].sort((a, b) => a.score - b.score || b.order - a.order)) {
    if (total <= maxTokens) break;
    out.add(line);
    total -= line.tokens;
  }
  return all.filter((l) => !out.has(l));
}

/** A range of content quoted line by line, as written: indentation is part of code. */
function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/**
 * Longest command an error line of the pool names as what it was about, and the same for what
 * resolved it, in characters: the pool's room is scarce, and the error's own words are what
 * must stay findable.
 * @default 40 — measured on the tuning split of 55 sessions: 80 (as in a checkpoint) kept 325 of
 * 346 probes, 40 327, 24 327.
 */
export const EARLIER_ERROR_DETAIL_CHARS = 40;

/**
 * A line as it was written, without a label: what kind of fact it is was read by rules that can be
 * wrong, and the label's tokens are better spent on one more line. An error keeps its label, what
 * it was about and whether it was resolved, which the line alone does not say.
 */
function ownLine(fact: Fact): string {
  return fact.kind === 'error' ? factLine(fact, MAX_FACT_TEXT_CHARS, EARLIER_ERROR_DETAIL_CHARS) : compactText(fact, MAX_FACT_TEXT_CHARS);
}

/**
 * How much a line's length weighs against its score when the room is shared: its value is its
 * score over this power of its tokens, so of two lines that score alike the shorter comes first,
 * while a long line that scores higher still wins.
 * @default 0.5 — measured on the tuning split with lines shown without labels: 0 (score alone) kept
 * 220 of 248 probes, 0.25 224, 0.5 226, 0.75 226, 1 (score per token) 224.
 */
export const LENGTH_WEIGHT = 0.5;
/** Fewest tokens a line is weighed as: the label and the line break cost that much anyway. @default 8 */
const MIN_WEIGHED_TOKENS = 8;

/** The pool's lines that no line of `heldText` (the checkpoints, the ledger's facts) holds, the most value for their room first. */
export function rankEarlierLines(pool: readonly EarlierLine[], heldText: string): readonly EarlierLine[] {
  return rankedWithout(pool, new HeldLines(pool).heldBy([heldText]));
}

/** The pool's lines but the `held` ones, the most value for their room first. */
export function rankedWithout(pool: readonly EarlierLine[], held: ReadonlySet<EarlierLine>): readonly EarlierLine[] {
  return held.size === 0 ? byValue(pool) : byValue(pool).filter((line) => !held.has(line));
}

/**
 * The pool's lines, the most value for their room first, and the lines of files' content after all
 * of them, in the order they were written, so a file reads from the top down: the order changes
 * only with the pool, what is held with every request.
 */
const byValue = memoizeByObject((pool: readonly EarlierLine[]): readonly EarlierLine[] => {
  const content = pool.filter((line) => line.from !== undefined).sort((a, b) => a.order - b.order);
  const ranked = pool
    .filter((line) => line.from === undefined)
    .map((line) => ({ line, value: line.score / Math.max(MIN_WEIGHED_TOKENS, line.tokens) ** LENGTH_WEIGHT }))
    .sort((a, b) => b.value - a.value || a.line.order - b.line.order)
    .map((v) => v.line);
  return [...ranked, ...content];
});

/**
 * The room as the section takes it: rounded down to a step, so the section stays the same text
 * (and its count comes from the cache) while the conversation grows within the step.
 */
export function earlierRoomFor(roomTokens: number, budget: number): number {
  const step = Math.max(MIN_EARLIER_ROOM_TOKENS, Math.floor(budget * ROOM_STEP_SHARE));
  const room = Math.floor(roomTokens / step) * step;
  return room >= MIN_EARLIER_ROOM_TOKENS ? room : 0;
}

/** A line a tool printed that is not a diagnostic: shown only in the printed lines' part of the room (see {@link EARLIER_PRINTED_SHARE}). */
function onlyInPrintedRoom(line: EarlierLine): boolean {
  return line.printed === true && line.kind !== 'error';
}

/** The part of a room content quoted under its source may take (see {@link EARLIER_CONTENT_SHARE}). */
export function earlierContentRoomOf(room: number): number {
  return Math.floor(room * EARLIER_CONTENT_SHARE);
}

/** The part of a room the lines a tool printed may take (see {@link EARLIER_PRINTED_SHARE}). */
export function earlierPrintedRoomOf(room: number, budget: number): number {
  return earlierRoomFor(Math.floor(room * EARLIER_PRINTED_SHARE), budget);
}

/** The room the earlier lines get at a rebase (see {@link EARLIER_LINES_SHARE}). */
export function earlierRoomAtRebase(budget: number): number {
  return earlierRoomFor(Math.floor(budget * EARLIER_LINES_SHARE), budget);
}

/** The step the room is rounded down to, as a share of the budget. @default 0.01 */
export const ROOM_STEP_SHARE = 0.01;

/**
 * The section of the `ranked` lines that fit `roomTokens`: each kind first takes its share of the
 * room (see `KIND_SHARES`), so one talkative kind cannot crowd out the others, then the best of
 * the rest; shown in the order they were said. Lines a tool printed, but its diagnostics, are shown
 * only while the section is within `printedTokens`, the part of the room that is free context rather
 * than the floor the lines always have, and content quoted under its source only while it is within
 * `contentTokens` (see {@link EARLIER_CONTENT_SHARE}; the printed lines' part unless given). Empty when nothing fits.
 */
export function earlierLinesSection(...section: Parameters<typeof countedEarlierLinesSection>): string {
  return countedEarlierLinesSection(...section).text;
}

/** The pool's other lines that a line's text holds whole (`HeldLines.othersHeldBy`). */
export type OthersHeldBy = (line: EarlierLine) => readonly EarlierLine[];
const NONE_HELD: OthersHeldBy = () => [];

/** A section and its tokens: at most the sum of its lines' counts and of its headings, never less than the text counted whole. */
export interface CountedSection {
  readonly text: string;
  readonly tokens: number;
}

/** {@link earlierLinesSection} with the tokens it takes, summed from its lines' counts: the section need not be counted again. */
export function countedEarlierLinesSection(
  ranked: readonly EarlierLine[],
  roomTokens: number,
  printedTokens = 0,
  othersHeldBy: OthersHeldBy = NONE_HELD,
  contentTokens = printedTokens,
): CountedSection {
  const none = { text: '', tokens: 0 };
  if (roomTokens < MIN_EARLIER_ROOM_TOKENS || ranked.length === 0) return none;
  // What a tool printed takes only its part of the room, but its diagnostics: the rest holds facts.
  const printedRoom = Math.min(roomTokens, printedTokens) - HEADING_TOKENS;
  if (printedRoom <= 0) ranked = ranked.filter((l) => !onlyInPrintedRoom(l));
  const contentRoom = Math.min(roomTokens, printedTokens, contentTokens) - HEADING_TOKENS;
  const room = roomTokens - HEADING_TOKENS;
  const chosen = new Set<EarlierLine>();
  // Lines a chosen line holds whole: shown already, they give their room back.
  const said = new Set<EarlierLine>();
  const headed = new Set<string>();
  const usedBy = new Map<FactKind, number>();
  let used = 0;
  const spend = (line: EarlierLine, tokens: number): void => {
    used += tokens;
    usedBy.set(line.kind, (usedBy.get(line.kind) ?? 0) + tokens);
  };
  // A source's ranges are shown from its top and without a gap: once one does not fit, none after it is shown.
  const stopped = new Set<string>();
  const take = (line: EarlierLine, limit: number): void => {
    // The first range of a file's content also pays for the heading its ranges are shown under.
    const source = sourceHeading(line);
    const heading = source !== undefined && !headed.has(source) ? (line.fromTokens ?? 0) : 0;
    if (chosen.has(line) || said.has(line) || (source !== undefined && stopped.has(source))) return;
    const ownLimit = source !== undefined ? contentRoom : onlyInPrintedRoom(line) ? printedRoom : limit;
    if (used + line.tokens + heading > Math.min(limit, ownLimit)) {
      if (source !== undefined) stopped.add(source);
      return;
    }
    chosen.add(line);
    if (source !== undefined) headed.add(source);
    spend(line, line.tokens + heading);
    for (const other of othersHeldBy(line)) {
      said.add(other);
      if (chosen.delete(other)) spend(other, -other.tokens);
    }
  };
  for (const line of ranked) {
    // A file's content only ever takes what every kind left.
    if (line.from !== undefined) break;
    const share = Math.floor(room * KIND_SHARES[line.kind]);
    if ((usedBy.get(line.kind) ?? 0) + line.tokens > share) continue;
    take(line, room);
  }
  for (const line of ranked) take(line, room);
  if (chosen.size === 0) return none;
  const shown: string[] = [];
  let from: string | undefined;
  for (const line of [...chosen].sort((a, b) => a.order - b.order)) {
    const source = sourceHeading(line);
    if (source !== undefined && source !== from) shown.push('', source);
    else if (source === undefined && from !== undefined) shown.push('');
    from = source;
    shown.push(line.text);
  }
  return { text: [EARLIER_LINES_HEADING, '', EARLIER_LINES_NOTE, ...shown].join('\n'), tokens: used + HEADING_TOKENS };
}

/**
 * Tokens of a section that shows every one of `ranked`: a room at least this large shows the same
 * section, so a cache of sections by room can take any larger room as this one.
 */
export function wholeSectionTokens(ranked: readonly EarlierLine[]): number {
  let tokens = HEADING_TOKENS;
  const headed = new Set<string>();
  for (const line of ranked) {
    tokens += line.tokens;
    const source = sourceHeading(line);
    if (source !== undefined && !headed.has(source)) {
      headed.add(source);
      tokens += line.fromTokens ?? 0;
    }
  }
  return tokens;
}

/** The heading a line of content is shown under; undefined for any other line. */
function sourceHeading(line: EarlierLine): string | undefined {
  return line.from === undefined ? undefined : contentHeading(line);
}

/** The heading of lines of content: what they are of, and where the rest is or that it may have changed since. */
function contentHeading(line: Pick<EarlierLine, 'from' | 'fromKind'>): string {
  if (line.fromKind === 'read') return `From \`${line.from}\` as read earlier (it may have changed since):`;
  if (line.fromKind === 'written') return `From what was written to \`${line.from}\` earlier (it may have changed since):`;
  if (line.fromKind === 'output') return `From what \`${line.from}\` printed earlier:`;
  if (line.fromKind === 'input') return `From what \`${line.from}\` was given earlier:`;
  return `From the offloaded file \`${line.from}\` (\`ctx_read_offloaded\` reads it whole):`;
}

/** Tokens the heading and the note take, with the blank line before the section: an upper bound. */
const HEADING_TOKENS = 40;
