/**
 * Fitting a structured text into a token target: some lines always stay, the others are chosen
 * by priority until the target is reached. Choosing works on character estimates calibrated by
 * one exact count, then checks the result with one exact count per attempt, so large candidate
 * sets cost a handful of token counts, not one per line.
 */
import type { CountText } from '../model/countText';

/** Priorities of optional lines: 1 is kept first, 4 only when there is room left. */
export const PRIORITY = {
  /** Goals, locked decisions, the next step, where the originals are. */
  essential: 1,
  /** Files changed, open errors, the current phase. */
  important: 2,
  /** Decisions read from the assistant's sentences, fixed errors, failed commands. */
  useful: 3,
  /** Commands that succeeded, files only read, identifiers mentioned. */
  detail: 4,
} as const;

/** A line that may be left out. Lower `priority` is kept first; within a priority, lower `rank`. */
export interface CandidateLine {
  readonly text: string;
  /** 1 is the most important. */
  readonly priority: number;
  /** Order of preference within the priority, e.g. recency. @default the line's position */
  readonly rank?: number;
  /** May be cut to fill the rest of the budget instead of being left out. @default false */
  readonly shortenable?: boolean;
  /**
   * Stands in for its section's other lines when none of them fits (a one-line form of a table):
   * shown only then, never beside them. @default false
   */
  readonly fallback?: boolean;
  /** Says where things stand in words another section may hold (the phase): left out when another line says the same. @default false */
  readonly restates?: boolean;
}

/**
 * How many of the latest items of each kind get the higher of their two priorities.
 * @default 3 — the latest few errors, files or decisions are what the next step builds on; every
 * kind keeps those before any kind keeps older ones.
 */
export const RECENT_FIRST = 3;

/**
 * Candidate lines for items in time order: the latest {@link RECENT_FIRST} at priority `recent`,
 * older ones at `older`, ranked newest first, shown in time order.
 */
export function recentFirst<T>(
  items: readonly T[],
  text: (item: T) => string,
  recent: number,
  older: number,
  shortenable = false,
): CandidateLine[] {
  return items.map((item, i) => {
    const age = items.length - i;
    return { text: text(item), priority: age <= RECENT_FIRST ? recent : older, rank: age, shortenable };
  });
}

/** Lines shown together, in their own order, whatever order they were chosen in. */
export interface LineGroup {
  /** Shown before the first chosen line (a sub-heading, a table header); nothing is shown for a group with no line chosen. */
  readonly header?: readonly string[];
  /** Prefix the chosen lines with "1. ", "2. "… */
  readonly numbered?: boolean;
  readonly lines: readonly CandidateLine[];
}

/**
 * A heading with the lines that always stay, then its groups. A section with neither required
 * nor candidate lines is left out, heading and all: a summary holds no placeholders.
 */
export interface FitSection {
  readonly heading: string;
  readonly required: readonly string[];
  readonly groups: readonly LineGroup[];
}

/**
 * Attempts before giving up on optional lines.
 * @default 6 — each attempt shrinks the budget by the measured overshoot, so two or three suffice.
 */
export const MAX_FIT_ATTEMPTS = 6;

/**
 * Share of the estimated budget used, so the exact check usually passes the first time.
 * @default 0.95
 */
export const ESTIMATE_SAFETY = 0.95;

/** A cut line must keep at least this many characters to be worth showing. @default 40 */
export const MIN_SHORTENED_CHARS = 40;

/** The title and sections as Markdown, each sentence said once, within `targetTokens` if the required lines allow it. */
export async function fitSections(
  title: string,
  given: readonly FitSection[],
  targetTokens: number,
  countText: CountText,
): Promise<string> {
  const sections = saidOnce(given);
  const all = (line: CandidateLine) => line.text;
  const full = render(title, sections, () => all);
  const fullTokens = await countText(full);
  if (fullTokens <= targetTokens) return render(title, sections, picked(choose(sections, Number.POSITIVE_INFINITY)));

  const skeleton = renderSkeleton(title, sections);
  const skeletonTokens = await countText(skeleton);
  if (skeletonTokens >= targetTokens) return skeleton;

  const charsPerToken = full.length / Math.max(1, fullTokens);
  let budgetChars = (targetTokens - skeletonTokens) * charsPerToken * ESTIMATE_SAFETY;
  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS && budgetChars > 0; attempt++) {
    const text = render(title, sections, picked(choose(sections, budgetChars)));
    const tokens = await countText(text);
    if (tokens <= targetTokens) return text;
    budgetChars *= (targetTokens / tokens) * ESTIMATE_SAFETY;
  }
  return skeleton;
}

/**
 * `text` cut to at most `maxChars` where an item of its list or a word ends, never inside one
 * (`- Named: src/a.ts, …`, not `- Named: src/a.ts, src/l…`): a part of a name is no name.
 * A list keeps at least one whole item; a line cut at a word, at least {@link MIN_SHORTENED_CHARS}; else undefined.
 */
export function cutWhereItEnds(text: string, maxChars: number): string | undefined {
  if (text.length <= maxChars) return text;
  const label = text.indexOf(': ');
  const item = text.lastIndexOf(', ', maxChars - 3);
  if (item > label + 1) return `${text.slice(0, item)}, …`;
  const word = text.lastIndexOf(' ', maxChars - 1);
  if (word < MIN_SHORTENED_CHARS) return undefined;
  return `${text.slice(0, word).trimEnd()}…`;
}

/** The title and the sections with required lines: what stays whatever the target. */
export function renderSkeleton(title: string, sections: readonly FitSection[]): string {
  return render(title, sections, () => () => undefined);
}

type Chosen = Map<LineGroup, Map<CandidateLine, string>>;

/**
 * Greedy choice by priority within a character budget; a shortenable line may take what is left.
 * Essential lines come first; then every section that has lines but no required ones gets its
 * best line within its share of what is left (cut to the share if it may be cut, passed over if
 * not, a stand-in taking the place of lines that cannot be cut), so a tight summary keeps a line
 * of each kind instead of headings alone; then everything else by priority.
 */
function choose(sections: readonly FitSection[], budgetChars: number): Chosen {
  const candidates: Candidate[] = [];
  sections.forEach((section, sectionIndex) => {
    for (const group of section.groups) group.lines.forEach((line, index) => candidates.push({ sectionIndex, group, line, index }));
  });
  candidates.sort((a, b) => a.line.priority - b.line.priority || (a.line.rank ?? a.index) - (b.line.rank ?? b.index));

  const chosen: Chosen = new Map();
  const covered = new Set<number>();
  // What each chosen line says: a line that another chosen line says word for word adds nothing.
  const sayings = new Map<Candidate, { readonly saying: string; readonly chars: number }>();
  const saidAlready = (saying: string): boolean => {
    for (const said of sayings.values()) if (said.saying.includes(saying)) return true;
    return false;
  };
  let left = budgetChars;
  const take = (c: Candidate, maxChars: number): boolean => {
    let lines = chosen.get(c.group);
    if (lines?.has(c.line)) return false;
    const headerCost = lines === undefined ? (c.group.header ?? []).reduce((n, h) => n + h.length + 1, 0) : 0;
    const room = Math.min(left, maxChars + headerCost + 1);
    let text: string | undefined;
    if (c.line.text.length + 1 + headerCost <= room) text = c.line.text;
    else if (c.line.shortenable && room - headerCost - 1 >= MIN_SHORTENED_CHARS) {
      text = cutWhereItEnds(c.line.text, Math.floor(room - headerCost - 1));
    }
    if (text === undefined) return false;
    const saying = sayingOf(text);
    if (saying.length > 0 && saidAlready(saying)) return false;
    if (lines === undefined) chosen.set(c.group, (lines = new Map()));
    lines.set(c.line, text);
    left -= text.length + 1 + headerCost;
    covered.add(c.sectionIndex);
    // A line chosen before that this one says word for word gives its room back ("Outcome: tests pass" beside "Ran `npm test`: tests pass").
    for (const [other, said] of sayings) {
      if (said.saying.length === 0 || !saying.includes(said.saying)) continue;
      chosen.get(other.group)?.delete(other.line);
      sayings.delete(other);
      left += said.chars;
    }
    sayings.set(c, { saying, chars: text.length + 1 });
    return true;
  };

  const main = candidates.filter((c) => !c.line.fallback);
  for (const c of main) if (c.line.priority <= PRIORITY.essential) take(c, Number.POSITIVE_INFINITY);
  const uncovered = sections
    .map((section, i) => ({ section, i }))
    .filter(({ section, i }) => section.required.length === 0 && !covered.has(i) && section.groups.some((g) => g.lines.length > 0));
  let waiting = uncovered.length;
  for (const { i } of uncovered) {
    const share = left / Math.max(1, waiting--);
    for (const c of candidates) if (c.sectionIndex === i && take(c, share)) break;
  }
  for (const c of main) take(c, Number.POSITIVE_INFINITY);
  // A stand-in taken for a section whose lines did not fit its share gives way once one of those lines is in.
  let gaveWay = false;
  for (const [c, said] of sayings) {
    if (!c.line.fallback || !main.some((m) => m.sectionIndex === c.sectionIndex && chosen.get(m.group)?.has(m.line))) continue;
    chosen.get(c.group)?.delete(c.line);
    sayings.delete(c);
    left += said.chars;
    gaveWay = true;
  }
  if (gaveWay) for (const c of main) take(c, Number.POSITIVE_INFINITY);
  return chosen;
}

interface Candidate {
  readonly sectionIndex: number;
  readonly group: LineGroup;
  readonly line: CandidateLine;
  readonly index: number;
}

type Pick = (group: LineGroup) => (line: CandidateLine) => string | undefined;

/**
 * The sections with each saying once: of lines that say the same sentence (a decision restated as
 * the phase or the next step), a line that only restates gives way, then the one of the highest
 * priority stays, the one in the later, more specific section among equals.
 */
function saidOnce(sections: readonly FitSection[]): readonly FitSection[] {
  const best = new Map<string, { line: CandidateLine; section: number }>();
  sections.forEach((section, i) => {
    for (const group of section.groups) {
      for (const line of group.lines) {
        const saying = sayingOf(line.text);
        const known = best.get(saying);
        if (!known || wins(line, known.line)) best.set(saying, { line, section: i });
      }
    }
  });
  if (best.size === sections.reduce((n, s) => n + s.groups.reduce((m, g) => m + g.lines.length, 0), 0)) return sections;
  const kept = new Set([...best.values()].map((b) => b.line));
  return sections.map((section) => ({
    ...section,
    groups: section.groups.map((g) => ({ ...g, lines: g.lines.filter((l) => kept.has(l)) })),
  }));
}

/** The lines a choice kept, as it cut them. */
function picked(chosen: Chosen): Pick {
  return (group) => (line) => chosen.get(group)?.get(line);
}

/** True when `line`, in a later section, is the copy of `known`'s saying to keep. */
function wins(line: CandidateLine, known: CandidateLine): boolean {
  if ((line.restates === true) !== (known.restates === true)) return known.restates === true;
  return line.priority <= known.priority;
}

/** A line's words without its list marker and labels (`- **Phase:** `, `[NEXT] `, `Outcome: `), case and spacing. */
function sayingOf(text: string): string {
  return text.replace(LINE_LABELS, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

const LINE_LABELS = /^(?:\s*(?:[-*]\s+|\d+\.\s+|\*\*[^*\n]{1,30}:\*\*\s*|\[[A-Z]+\]\s*|[A-Za-z]{2,15}:\s+))+/;

function render(title: string, sections: readonly FitSection[], pick: Pick): string {
  const out = [title];
  for (const section of sections) {
    const body = [...section.required];
    for (const group of section.groups) {
      const texts = group.lines.map(pick(group)).filter((t): t is string => t !== undefined);
      if (texts.length === 0) continue;
      body.push(...(group.header ?? []), ...texts.map((t, i) => (group.numbered ? `${i + 1}. ${t}` : t)));
    }
    // A heading with nothing under it says nothing: an aged summary keeps facts, never bare headings.
    if (body.length > 0) out.push('', section.heading, ...body);
  }
  return out.join('\n');
}
