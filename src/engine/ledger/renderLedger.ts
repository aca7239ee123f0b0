/**
 * The ledger as Markdown for every request, within a token budget.
 *
 * The protected part (intent, goals, decisions, progress, next step, artifacts, earlier user
 * messages) is never cut: when it alone is over budget the result says `overflow` and still holds
 * all of it. The facts the recall check put back have their own small cap and come with it. The
 * tool record (files, commands, errors, offloaded results) is shortened instead, least important
 * and oldest lines first, unfixed errors last of all.
 *
 * It runs on every request, so it counts tokens sparingly: the whole text once, and only when
 * that is over budget the protected part once and each candidate cut (estimated from characters)
 * until one fits, a few at most.
 */
import { estimateTokens } from '../tokens/estimate';
import { DEFAULT_FACTS_TOKENS, factsSection } from './factsSection';
import { earlierUserMessages, leadingSections, LEDGER_HEADING, LEDGER_NOTE, section, type LedgerSection } from './ledgerSections';
import type { Ledger } from './ledgerTypes';
import { recordSections, type OutputDetails, type RecordSection, type RecordSectionId } from './toolRecordLines';

export interface RenderLedgerOptions {
  /** Messages still in the active context: their user messages are not repeated. */
  readonly liveMessageIds: ReadonlySet<string>;
  /** Pinned items still live as they were pinned: the ledger does not repeat them. */
  readonly livePinned?: ReadonlySet<string>;
  readonly budgetTokens: number;
  /** Tokens the facts put back by the recall check may take. @default 400 */
  readonly factsTokens?: number;
  countText(text: string): Promise<number>;
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
  const joined = (parts: readonly LedgerSection[]) => parts.map((p) => p.text).join(SECTION_SEPARATOR);
  const all = new Map(sections.map((s) => [s.id, s.lines.length]));
  const fullSections = compose(all);
  const fullText = joined(fullSections);
  const fullTokens = await opts.countText(fullText);
  if (fullTokens <= opts.budgetTokens) return { text: fullText, tokens: fullTokens, overflow: false, omitted: [], sections: fullSections };

  const none = new Map<RecordSectionId, number>();
  const protectedSections = compose(none);
  const protectedText = joined(protectedSections);
  const protectedTokens = total === 0 ? fullTokens : await opts.countText(protectedText);
  const fallback = {
    text: protectedText,
    tokens: protectedTokens,
    overflow: protectedTokens > opts.budgetTokens,
    omitted: omittedWords(sections, none),
    sections: protectedSections,
  };
  if (fallback.overflow || total === 0) return fallback;

  // Real tokenizers may count more than four characters a token; scale the estimates to this text.
  const scale = Math.max(1, fullTokens / Math.max(1, estimateTokens(fullText)));
  const costs = sections.map((s) => sectionCost(s, scale));
  let room = opts.budgetTokens - protectedTokens;
  for (let attempt = 0; attempt < MAX_CUT_ATTEMPTS && room > 0; attempt++) {
    const kept = fit(costs, ranked, room);
    if ([...kept.values()].every((n) => n === 0)) break;
    const keptSections = compose(kept);
    const text = joined(keptSections);
    const tokens = await opts.countText(text);
    if (tokens <= opts.budgetTokens) {
      return { text, tokens, overflow: false, omitted: omittedWords(sections, kept), sections: keptSections };
    }
    room -= (tokens - opts.budgetTokens) * CUT_MARGIN + 1;
  }
  return fallback;
}

/** Estimated tokens of a section: its heading and closing "…and N more" line, and each line. */
interface SectionCost {
  readonly id: RecordSectionId;
  readonly head: number;
  readonly lines: readonly number[];
}

function sectionCost(s: RecordSection, scale: number): SectionCost {
  // Outputs are shown on their command's line: no heading of their own.
  const head = s.id === 'outputs' ? 0 : estimateTokens(`${SECTION_SEPARATOR}### ${s.title}\n${moreLine(s.lines.length)}\n`) * scale;
  return { id: s.id, head, lines: s.lines.map((l) => (estimateTokens(l) + (s.id === 'outputs' ? 0 : 1)) * scale) };
}

/** How many lines of each section fit in `room` tokens, keeping a prefix of the ranking. */
function fit(
  costs: readonly SectionCost[],
  ranked: readonly { readonly section: RecordSectionId }[],
  room: number,
): Map<RecordSectionId, number> {
  const kept = new Map<RecordSectionId, number>(costs.map((c) => [c.id, 0]));
  const byId = new Map(costs.map((c) => [c.id, c]));
  let used = 0;
  for (const line of ranked) {
    const cost = byId.get(line.section);
    if (cost === undefined) continue;
    const n = kept.get(line.section) ?? 0;
    const next = used + cost.lines[n] + (n === 0 ? cost.head : 0);
    if (next > room) break;
    used = next;
    kept.set(line.section, n + 1);
  }
  return kept;
}

/** The kept part of each section; the first kept outputs (newest first, like the commands) follow their command lines. */
function recordTexts(sections: readonly RecordSection[], kept: ReadonlyMap<RecordSectionId, number>, outputs: OutputDetails): string[] {
  const texts: string[] = [];
  const shownOutputs = kept.get('outputs') ?? 0;
  for (const s of sections) {
    const n = kept.get(s.id) ?? 0;
    if (n === 0 || s.id === 'outputs') continue;
    let lines = s.lines.slice(0, n);
    if (s.id === 'commands' && shownOutputs > 0) {
      lines = [...lines];
      for (let j = 0; j < shownOutputs; j++) {
        const at = outputs.lineIndex[j];
        if (at < lines.length) lines[at] += outputs.texts[j];
      }
    }
    const more = s.lines.length - n;
    const text = section(s.title, more > 0 ? [...lines, moreLine(more)] : lines);
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

function moreLine(count: number): string {
  return `…and ${count} more (search them with ctx_recover)`;
}

function omittedWords(sections: readonly RecordSection[], kept: ReadonlyMap<RecordSectionId, number>): string[] {
  return sections
    .filter((s) => (kept.get(s.id) ?? 0) < s.lines.length)
    .map((s) => `${s.lines.length - (kept.get(s.id) ?? 0)} of ${s.lines.length} ${s.noun}`);
}
