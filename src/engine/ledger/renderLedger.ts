/**
 * The ledger as Markdown for every request, within a token budget.
 *
 * The protected part (intent, goals, decisions, progress, next step, artifacts, earlier user
 * messages) is never cut: when it alone is over budget the result says `overflow` and still holds
 * all of it. The facts the recall check put back have their own small cap and come with it. The
 * tool record (files, commands, errors, offloaded results) is shortened instead, least important
 * and oldest lines first, unfixed errors last of all, to fit the ledger's budget and its own.
 *
 * It runs on every request, so it counts tokens sparingly: the whole text once, and only when
 * that is over budget the protected part once and each candidate cut (estimated from characters)
 * until one fits, a few at most. Texts are counted as sections, and a tool record section that did
 * not change is the same text as before, so a long session's record costs what changed in it.
 */
import { estimateTokens } from '../tokens/estimate';
import { DEFAULT_FACTS_TOKENS, factsSection } from './factsSection';
import { earlierUserMessages, leadingSections, LEDGER_HEADING, LEDGER_NOTE, section } from './ledgerSections';
import type { LedgerSection } from '../model/contextSection';
import type { Ledger } from '../model/ledgerTypes';
import { memoizeByObject } from '../memo';
import { recordSections, type OutputDetails, type RankedRun, type RecordSection, type RecordSectionId } from './toolRecordLines';

export interface RenderLedgerOptions {
  /** Messages still in the active context: their user messages are not repeated. */
  readonly liveMessageIds: ReadonlySet<string>;
  /** Pinned items still live as they were pinned: the ledger does not repeat them. */
  readonly livePinned?: ReadonlySet<string>;
  readonly budgetTokens: number;
  /** Tokens the tool record may take within `budgetTokens`. @default no limit but the ledger's */
  readonly recordTokens?: number;
  /** Tokens the facts put back by the recall check may take. @default 400 */
  readonly factsTokens?: number;
  countText(text: string): Promise<number>;
  /**
   * Tokens of texts joined by blank lines, as `countText` counts the joined text. A counter that
   * remembers texts counts a section it saw before without the join: the sections of a long
   * session's tool record stay the same objects while they are unchanged. By default the join is counted.
   */
  countSections?(texts: readonly string[]): Promise<number>;
}

export interface RenderedLedger {
  /** Markdown starting with `## Session ledger`; empty when the ledger holds nothing. */
  readonly text: string;
  readonly tokens: number;
  /** True when the protected part alone is over budget (it is all there nonetheless). */
  readonly overflow: boolean;
  /** What was shortened to fit, in words, e.g. `12 of 40 files`. */
  readonly omitted: readonly string[];
}

/** The rendered ledger with its sections. */
export interface RenderedLedgerSections extends RenderedLedger {
  /** The text's sections in order, each with the part it is; joined by blank lines they are `text`. */
  readonly sections: readonly LedgerSection[];
}

/** Candidate cuts verified with the tokenizer before falling back to no tool record at all. */
const MAX_CUT_ATTEMPTS = 3;
/** Each failed attempt aims this much lower than the overshoot it saw. */
const CUT_MARGIN = 1.1;
const SECTION_SEPARATOR = '\n\n';

const EMPTY: RenderedLedgerSections = { text: '', tokens: 0, overflow: false, omitted: [], sections: [] };

/** Renders the ledger within `budgetTokens`, shortening only the tool record. */
export async function renderLedger(ledger: Ledger, opts: RenderLedgerOptions): Promise<RenderedLedger> {
  const { sections: _sections, ...rendered } = await renderLedgerSections(ledger, opts);
  return rendered;
}

/** Renders the ledger as `renderLedger` does, and says which part each section of the text is. */
export async function renderLedgerSections(ledger: Ledger, opts: RenderLedgerOptions): Promise<RenderedLedgerSections> {
  const countSections = opts.countSections ?? ((texts: readonly string[]) => opts.countText(texts.join(SECTION_SEPARATOR)));
  const facts = await factsSection(ledger.facts ?? [], opts.factsTokens ?? DEFAULT_FACTS_TOKENS, (t) => opts.countText(t));
  const protectedParts = leadingSections(ledger, opts.liveMessageIds, opts.livePinned);
  const leading = facts === undefined ? protectedParts : [...protectedParts, { part: 'facts' as const, text: facts }];
  const trailing = earlierUserMessages(ledger, opts.liveMessageIds);
  const { sections, ranked, outputs } = recordSections(ledger.tools);
  const total = sections.reduce((n, s) => n + s.lines.length, 0);
  if (leading.length === 0 && trailing === undefined && total === 0) return EMPTY;

  const compose = (kept: ReadonlyMap<RecordSectionId, number>): LedgerSection[] => [
    { part: 'ledgerHeading', text: LEDGER_HEADING + '\n' + LEDGER_NOTE },
    ...leading,
    ...recordTexts(sections, kept, outputs).map((text) => ({ part: 'toolRecord' as const, text })),
    ...(trailing === undefined ? [] : [{ part: 'userMessages' as const, text: trailing }]),
  ];
  const counted = (parts: readonly LedgerSection[]) => countSections(parts.map((p) => p.text));
  const result = (parts: readonly LedgerSection[], tokens: number, kept: ReadonlyMap<RecordSectionId, number>, overflow = false) => ({
    text: parts.map((p) => p.text).join(SECTION_SEPARATOR),
    tokens,
    overflow,
    omitted: omittedWords(sections, kept),
    sections: parts,
  });
  // The whole text is joined only once it is known to fit: a long session's record is far over budget.
  const all = new Map(sections.map((s) => [s.id, s.lines.length]));
  const fullSections = compose(all);
  const fullTokens = await counted(fullSections);
  const recordLimit = opts.recordTokens ?? Infinity;
  if (fullTokens <= opts.budgetTokens && fullTokens <= recordLimit) return result(fullSections, fullTokens, all);

  const none = new Map<RecordSectionId, number>();
  const protectedSections = compose(none);
  const protectedTokens = total === 0 ? fullTokens : await counted(protectedSections);
  const fallback = result(protectedSections, protectedTokens, none, protectedTokens > opts.budgetTokens);
  if (fallback.overflow || total === 0) return fallback;
  const budgetTokens = Math.min(opts.budgetTokens, protectedTokens + recordLimit);
  if (fullTokens <= budgetTokens) return result(fullSections, fullTokens, all);

  // Real tokenizers may count more than four characters a token; scale the estimates to this record.
  const recordEstimate = sections.reduce((n, s) => n + wholeSection(s, outputs).estimate, 0);
  const scale = Math.max(1, (fullTokens - protectedTokens) / Math.max(1, recordEstimate));
  let room = budgetTokens - protectedTokens;
  for (let attempt = 0; attempt < MAX_CUT_ATTEMPTS && room > 0; attempt++) {
    const kept = fit(sections, ranked, scale, room);
    if ([...kept.values()].every((n) => n === 0)) break;
    const keptSections = compose(kept);
    const tokens = await counted(keptSections);
    if (tokens <= budgetTokens) return result(keptSections, tokens, kept);
    room -= (tokens - budgetTokens) * CUT_MARGIN + 1;
  }
  return fallback;
}

/** Estimated tokens of each line of a section with its line break: made once per section. */
const lineEstimates = memoizeByObject((s: RecordSection): readonly number[] =>
  // Outputs are shown on their command's line: no line break of their own.
  s.lines.map((l) => estimateTokens(l) + (s.id === 'outputs' ? 0 : 1)),
);

/** Estimated tokens of a section's heading and closing "…and N more" line. */
function headEstimate(s: RecordSection): number {
  // Outputs are shown on their command's line: no heading of their own.
  return s.id === 'outputs' ? 0 : estimateTokens(`${SECTION_SEPARATOR}### ${s.title}\n${moreLine(s.lines.length)}\n`);
}

/** How many lines of each section fit in `room` tokens, keeping a prefix of the ranking. */
function fit(sections: readonly RecordSection[], ranked: readonly RankedRun[], scale: number, room: number): Map<RecordSectionId, number> {
  const kept = new Map<RecordSectionId, number>(sections.map((s) => [s.id, 0]));
  const byId = new Map(sections.map((s) => [s.id, s]));
  let used = 0;
  for (const run of ranked) {
    const s = byId.get(run.section);
    if (s === undefined) continue;
    const lines = lineEstimates(s);
    for (let i = 0; i < run.count; i++) {
      const n = kept.get(s.id) ?? 0;
      const next = used + (lines[n] + (n === 0 ? headEstimate(s) : 0)) * scale;
      if (next > room) return kept;
      used = next;
      kept.set(s.id, n + 1);
    }
  }
  return kept;
}

/**
 * A section with all its lines (the commands with all they printed), and its estimate: made once
 * per section. The outputs belong to the commands section, so the section alone says which they are.
 */
function wholeSection(s: RecordSection, outputs: OutputDetails): { readonly text: string | undefined; readonly estimate: number } {
  const known = wholeSections.get(s);
  if (known) return known;
  const text = s.id === 'outputs' ? undefined : keptText(s, s.lines.length, outputs, s.id === 'commands' ? outputs.texts.length : 0);
  const whole = { text, estimate: text === undefined ? 0 : estimateTokens(text) };
  wholeSections.set(s, whole);
  return whole;
}

const wholeSections = new WeakMap<RecordSection, { readonly text: string | undefined; readonly estimate: number }>();

/** The kept part of each section; the first kept outputs (newest first, like the commands) follow their command lines. */
function recordTexts(sections: readonly RecordSection[], kept: ReadonlyMap<RecordSectionId, number>, outputs: OutputDetails): string[] {
  const texts: string[] = [];
  const shownOutputs = kept.get('outputs') ?? 0;
  for (const s of sections) {
    const n = kept.get(s.id) ?? 0;
    if (n === 0 || s.id === 'outputs') continue;
    const whole = n === s.lines.length && (s.id !== 'commands' || shownOutputs === outputs.texts.length);
    const text = whole ? wholeSection(s, outputs).text : keptText(s, n, outputs, shownOutputs);
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

/** The first `n` lines of a section under its title, and how many more there are. */
function keptText(s: RecordSection, n: number, outputs: OutputDetails, shownOutputs: number): string | undefined {
  const lines = s.lines.slice(0, n);
  if (s.id === 'commands' && shownOutputs > 0) {
    for (let j = 0; j < shownOutputs; j++) {
      const at = outputs.lineIndex[j];
      if (at < lines.length) lines[at] += outputs.texts[j];
    }
  }
  const more = s.lines.length - n;
  return section(s.title, more > 0 ? [...lines, moreLine(more)] : lines);
}

function moreLine(count: number): string {
  return `…and ${count} more (search them with ctx_recover)`;
}

function omittedWords(sections: readonly RecordSection[], kept: ReadonlyMap<RecordSectionId, number>): string[] {
  return sections
    .filter((s) => (kept.get(s.id) ?? 0) < s.lines.length)
    .map((s) => `${s.lines.length - (kept.get(s.id) ?? 0)} of ${s.lines.length} ${s.noun}`);
}
