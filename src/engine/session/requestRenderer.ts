/**
 * What the next request sends: ctx's context message (the ledger, the checkpoints, what the drift
 * check restored), then the live messages, measured. Between two rebases the context message is the one frozen in
 * the state, byte for byte (see `model/frozenContext.ts`); otherwise it is rendered from the state. The ledger is
 * rendered again only when the ledger, the budget or what of the live messages it depends on changed, and an
 * unchanged context message is the same object, so its token count comes from the counter's cache.
 */
import type { LedgerShares } from '../options';
import type { RequestView } from '../model/requestView';
import { contextMessage, renderContextSections, type BuiltContextMessage } from '../checkpoints/contextMessage';
import {
  countedEarlierLinesSection,
  earlierContentRoomOf,
  type CountedSection,
  MIN_EARLIER_ROOM_TOKENS,
  rankedWithout,
  wholeSectionTokens,
} from '../checkpoints/earlierLines';
import { HeldLines } from '../checkpoints/heldLines';
import type { EarlierLine } from '../model/earlierLine';
import type { ContextSection, LedgerSection } from '../model/contextSection';
import { maskSecrets } from '../text/secrets';
import { EMPTY_LEDGER, type Ledger } from '../model/ledgerTypes';
import { pinnedStillLive } from '../ledger/pinned';
import { renderLedgerSections } from '../ledger/renderLedger';
import type { SessionState } from '../model/sessionState';
import type { Message } from '../types';
import type { Measurement, TokenCounter } from '../tokens/counter';
import { ownCopy } from '../text/ownCopy';
import { FNV_OFFSET_BASIS, fnv1a } from '../text/fnv';
import { concatenated } from '../appendedList';
import { frozenFor } from '../model/frozenContext';
import { inputValues } from '../recall/terms';
import { memoizeByObject } from '../memo';

/**
 * Before anything left the context, the live messages already hold the intent, the user's messages
 * and the tool calls: only what they do not say (goals, decisions, progress) is shown.
 */
function pinnedOnly(ledger: Ledger): Ledger {
  return { ...ledger, intent: undefined, userMessages: [], tools: EMPTY_LEDGER.tools };
}

/** Section texts whose masking is remembered; a context message has a few dozen sections. @default 256 */
const MASKED_TEXTS_KEPT = 256;

/** Where the second hash of the live ids starts: two hashes from different starts, so two id sets rarely share both. */
const SECOND_HASH_BASIS = 0x9747b28c;

/**
 * What of the live context the ledger's text depends on: which of its user messages are still live
 * (they are not repeated) and which pinned items are. A new message that changes neither, and
 * leaves the ledger as it was, gets the ledger rendered before.
 */
function liveInLedger(ledger: Ledger, liveUserIds: ReadonlySet<string>, livePinned: ReadonlySet<string>): string {
  // Two hashes of the live ids rather than the ids joined: the ledger keeps every user message, and this runs on every render.
  let count = 0;
  let a = FNV_OFFSET_BASIS;
  let b = SECOND_HASH_BASIS;
  for (const u of ledger.userMessages) {
    if (!liveUserIds.has(u.messageId)) continue;
    count++;
    a = fnv1a('\n', fnv1a(u.messageId, a));
    b = fnv1a('\n', fnv1a(u.messageId, b));
  }
  return `${count}:${a >>> 0}:${b >>> 0}\n${[...livePinned].join('\n')}`;
}

/** Line and piece counts are kept until they are this many times those of the latest ledger. */
const FORGET_LINES_AFTER = 4;
/** What separates the ledger's sections: the pieces counted as a whole. */
const PIECE_BREAK = '\n\n';

interface PieceCount {
  readonly tokens: number;
  /** How many lines the piece has. */
  readonly lines: number;
}

/** The earlier lines as last shown: their ranking for the pool and what it is ranked against, and the section for a room. */
interface EarlierCache {
  readonly key: readonly unknown[];
  /** The pool's lines held already, left out of the ranking. */
  readonly held: ReadonlySet<EarlierLine>;
  readonly ranked: readonly EarlierLine[];
  /** Tokens of the section that shows every ranked line. */
  readonly wholeTokens: number;
  /** The sections made of this ranking, by their room and printed room: each is made once. */
  readonly sections: Map<string, CountedSection>;
  /** The section shown last, with its tokens summed from its lines' counts. */
  shown: CountedSection;
}

/** A ranking with no section made yet. */
function rankingOf(key: readonly unknown[], held: ReadonlySet<EarlierLine>, ranked: readonly EarlierLine[]): EarlierCache {
  return { key, held, ranked, wholeTokens: wholeSectionTokens(ranked), sections: new Map(), shown: { text: '', tokens: 0 } };
}

/**
 * Most sections kept of one ranking: a rebase tries the room it gives before and after its checkpoint.
 * In a large window a section is most of a megabyte. @default 2
 */
const MAX_KEPT_SECTIONS = 2;

export class RequestRenderer {
  /** The last view, reused while the state and the budget are the same and its figures are still the best there are. */
  private last: { state: SessionState; budget: number; view: Promise<RequestView>; estimated?: boolean } | undefined;
  private ledgerCache: { key: readonly unknown[]; text: string; overflow: boolean; sections: readonly LedgerSection[] } | undefined;
  private context: BuiltContextMessage | undefined;
  private earlierCache: EarlierCache | undefined;
  private liveIdsOf: { readonly active: readonly Message[]; readonly ids: ReadonlySet<string> } | undefined;
  private lastContext:
    | {
        readonly head: Message | undefined;
        readonly active: readonly Message[];
        readonly messages: readonly Message[];
        readonly measured: Measurement;
      }
    | undefined;
  /** Which of the pool's lines the ledger and the checkpoints hold. */
  private heldLines: HeldLines | undefined;
  /** Token counts of the ledger's lines, kept across renders. */
  private lineCounts = new Map<string, number>();
  /** Token counts of the ledger's pieces between blank lines, kept across renders. */
  private pieceCounts = new Map<string, PieceCount>();
  /** The pieces the ledger render in progress has counted: the ones to keep when old counts are forgotten. */
  private renderPieces = new Set<string>();
  /** Sections' texts masked, by their text: a section that did not change is not masked again. */
  private readonly maskedTexts = new Map<string, string>();

  constructor(
    private readonly counter: TokenCounter,
    /** Shares of the budget the ledger and its tool record may take. */
    private readonly shares: LedgerShares,
  ) {}

  /** The view of a state: rendered once per state and budget, however often it is asked for. */
  render(s: SessionState, budget: number): Promise<RequestView> {
    const last = this.last;
    // Figures estimated while the tokenizer was loading are measured again once it is ready.
    const stale = last?.estimated === true && !this.counter.estimated;
    if (last && last.state === s && last.budget === budget && !stale) return last.view;
    const view = this.renderNow(s, budget);
    const entry: NonNullable<typeof this.last> = { state: s, budget, view };
    this.last = entry;
    view.then(
      (v) => (entry.estimated = v.measured.estimated),
      () => this.last === entry && (this.last = undefined),
    );
    return view;
  }

  /**
   * The earlier lines the state's room shows. Their ranking is made again only when the pool
   * changed or a line came to be held or stopped being held; the texts that hold lines are read
   * again only where they changed.
   */
  private earlierLines(s: SessionState, ledgerText: string): string {
    if (s.earlierRoom <= 0 || s.earlierLines.length === 0) return '';
    const key = [s.earlierLines, s.checkpoints, s.ledger.facts, ledgerText, s.active];
    if (!this.earlierCache || this.earlierCache.key.some((k, i) => k !== key[i])) {
      if (this.heldLines?.pool !== s.earlierLines) this.heldLines = new HeldLines(s.earlierLines, this.heldLines);
      // What the ledger shows word for word (the requests, the intent) needs no line of its own, nor what a live
      // message still says: the lines are chosen at a rebase and kept until the next, and the live messages of a
      // rebase stay in the context until then.
      const held = this.heldLines.heldBy([
        ledgerText,
        ...s.checkpoints.map((c) => c.summary),
        ...(s.ledger.facts ?? []).map((f) => f.line),
        ...s.active.flatMap(shownTexts),
      ]);
      const last = this.earlierCache;
      this.earlierCache =
        last && last.key[0] === s.earlierLines && sameMembers(last.held, held)
          ? { ...last, key }
          : rankingOf(key, held, rankedWithout(s.earlierLines, held));
    }
    const { ranked, sections, wholeTokens } = this.earlierCache;
    // A room larger than every line needs is that room: the section is the same, and made once. A section shown whole
    // is shown however few its lines: the least room worth a section is for cutting a pool, not for showing all of it.
    const room = Math.min(s.earlierRoom, Math.max(wholeTokens, MIN_EARLIER_ROOM_TOKENS));
    const printed = Math.min(s.earlierPrintedRoom ?? 0, wholeTokens);
    const content = Math.min(earlierContentRoomOf(s.earlierRoom), wholeTokens);
    const at = `${room}:${printed}:${content}`;
    let section = sections.get(at);
    if (section) {
      // The latest used is the last to go.
      sections.delete(at);
    } else {
      const heldLines = this.heldLines;
      const othersHeldBy = heldLines ? (line: EarlierLine) => heldLines.othersHeldBy(line) : undefined;
      section = countedEarlierLinesSection(ranked, room, printed, othersHeldBy, content);
      for (const oldest of sections.keys()) {
        if (sections.size < MAX_KEPT_SECTIONS) break;
        sections.delete(oldest);
      }
    }
    sections.set(at, section);
    this.earlierCache.shown = section;
    return section.text;
  }

  /**
   * The ids of the live user messages: the ledger only ever asks whether one of its user messages
   * is still live. The same set while the live messages are the same, since a request renders
   * several states of one context; and no set of every live message, which a 1M-token window
   * makes thousands long.
   */
  private liveUserIds(active: readonly Message[]): ReadonlySet<string> {
    if (this.liveIdsOf?.active !== active) {
      const ids = new Set<string>();
      for (const m of active) if (m.role === 'user') ids.add(m.id);
      this.liveIdsOf = { active, ids };
    }
    return this.liveIdsOf.ids;
  }

  private async renderNow(s: SessionState, budget: number): Promise<RequestView> {
    const frozen = frozenFor(s.frozenContext, budget);
    const { sections, ledgerOverflow } = frozen ?? (await this.freshSections(s, budget));
    this.context = contextMessage(sections, this.context);
    const head = this.context?.message;
    const earlierAt = head ? sections.findIndex((section) => section.part === 'earlier') : -1;
    // The earlier lines are counted already when they were just chosen: their sum stands for the section.
    if (!frozen && head && earlierAt >= 0 && this.earlierCache) {
      this.counter.knowBlock(head.blocks[earlierAt], this.earlierCache.shown.tokens + 1);
    }
    const { messages, measured } = await this.measuredContext(head, s.active);
    return {
      messages,
      measured,
      contextTokens: head ? measured.messageTokens[0] : 0,
      ledgerOverflow,
      sections: head ? sections : [],
      earlierTokens: head && earlierAt >= 0 ? this.counter.blockTokens(head.blocks[earlierAt]) : 0,
    };
  }

  /**
   * The context message's sections as the state has them now (the ledger, the checkpoints, the earlier lines in
   * their room, what the drift check put back), each masked (`maskSecrets`) as the request is assembled, so nothing
   * a step added after its own masking reaches the model unmasked.
   */
  private async freshSections(s: SessionState, budget: number): Promise<{ sections: ContextSection[]; ledgerOverflow: boolean }> {
    // Something left the live context (a checkpoint, the watermark, a message dropped or restored away), or it continues another session.
    const everything =
      s.checkpoints.length > 0 || s.watermark !== undefined || s.parentSessionId !== undefined || s.active.length < s.archivedCount;
    const liveUserIds = this.liveUserIds(s.active);
    const livePinned = pinnedStillLive(s.ledger.pinned ?? [], s.active);
    const key = [s.ledger, budget, everything, liveInLedger(s.ledger, liveUserIds, livePinned)];
    if (!this.ledgerCache || this.ledgerCache.key.some((k, i) => k !== key[i])) {
      this.renderPieces = new Set();
      const rendered = await renderLedgerSections(everything ? s.ledger : pinnedOnly(s.ledger), {
        liveMessageIds: liveUserIds,
        livePinned,
        budgetTokens: Math.floor(budget * this.shares.ledgerShare),
        recordTokens: Math.floor(budget * this.shares.toolRecordShare),
        countText: (t) => this.countByLine(t),
        countSections: (texts) => this.countSections(texts),
      });
      this.forgetOldLines();
      this.ledgerCache = { key, text: rendered.text, overflow: rendered.overflow, sections: rendered.sections };
    }
    const sections = renderContextSections({
      ledgerText: this.ledgerCache.text,
      ledgerSections: this.ledgerCache.sections,
      checkpoints: s.checkpoints,
      putBack: s.putBack,
      earlier: this.earlierLines(s, this.ledgerCache.text),
    });
    return { sections: sections.map((section) => this.masked(section)), ledgerOverflow: this.ledgerCache.overflow };
  }

  /** A section with its credentials masked; the same object when there were none, so its block and count are kept. */
  private masked(section: ContextSection): ContextSection {
    let text = this.maskedTexts.get(section.text);
    if (text === undefined) {
      text = maskSecrets(section.text);
      if (this.maskedTexts.size >= MASKED_TEXTS_KEPT) this.maskedTexts.clear();
      this.maskedTexts.set(section.text, text);
    }
    return text === section.text ? section : { ...section, text };
  }

  /**
   * The messages a request sends and their measurement: the same as last time while the context
   * message and the live messages are (a request's steps make several states, most of which change
   * neither), so a large window's list of thousands of messages is not copied and measured again.
   */
  private async measuredContext(
    head: Message | undefined,
    active: readonly Message[],
  ): Promise<{ messages: readonly Message[]; measured: Measurement }> {
    const last = this.lastContext;
    if (last && last.head === head && last.active === active && !last.measured.estimated) return last;
    const messages = head ? concatenated([head], active) : active;
    const measured = await this.counter.measure(messages);
    this.lastContext = { head, active, messages, measured };
    return this.lastContext;
  }

  /**
   * The ledger's size for fitting it to its share: the sum of its lines' counts, plus one token per
   * line break. A line break is a token of its own in the encodings ctx uses, so the sum is the
   * whole text's count or a little more (blank lines), never less. Each line is counted once
   * while it stays in the ledger, so a long session's ledger is not counted again in full on
   * every request, only its new lines; and a piece between blank lines (a section) that is
   * unchanged is not even split into lines again. The ledger is counted in pieces (a section, a
   * cut being tried), so counts are forgotten only once a whole render is done (`forgetOldLines`).
   */
  private async countByLine(text: string): Promise<number> {
    const pieces = text.split(PIECE_BREAK);
    const newPieces = [...new Set(pieces.filter((p) => !this.pieceCounts.has(p)))].map((p) => ({ text: p, lines: p.split('\n') }));
    const unknown = [...new Set(newPieces.flatMap((p) => p.lines.filter((l) => !this.lineCounts.has(l))))];
    const counts = await this.counter.countTexts(unknown);
    const exact = !this.counter.estimated;
    const fresh = new Map(unknown.map((l, i) => [l, counts[i]]));
    const freshPieces = new Map<string, PieceCount>();
    for (const { text: piece, lines } of newPieces) {
      let tokens = lines.length - 1;
      for (const line of lines) tokens += this.lineCounts.get(line) ?? fresh.get(line) ?? 0;
      freshPieces.set(piece, { tokens, lines: lines.length });
    }
    // Between two pieces, a blank line: two line breaks.
    let total = 2 * (pieces.length - 1);
    for (const piece of pieces) total += (this.pieceCounts.get(piece) ?? freshPieces.get(piece))?.tokens ?? 0;
    // Estimates made while the tokenizer loads are not kept.
    if (!exact) return total;
    // Kept as copies: a line or piece split from a text would keep the whole text alive after the text has changed.
    for (const [line, tokens] of fresh) this.lineCounts.set(ownCopy(line), tokens);
    for (const [piece, count] of freshPieces) this.pieceCounts.set(ownCopy(piece), count);
    for (const piece of pieces) this.renderPieces.add(piece);
    return total;
  }

  /**
   * Sections joined by blank lines, counted as `countByLine` counts the joined text (each blank line
   * between them two line breaks), without the join: a section counted before is a lookup. A
   * section with blank lines of its own (the earlier user messages) is remembered whole as well, so
   * it is not split again while it stays the same; its lines are its pieces', not counted twice.
   */
  private async countSections(texts: readonly string[]): Promise<number> {
    let total = 2 * (texts.length - 1);
    for (const text of texts) {
      // Counted with the tokenizer ready, the count is exact: an estimate made while it loads is not kept.
      const exact = !this.counter.estimated;
      const tokens = this.pieceCounts.get(text)?.tokens ?? (await this.countByLine(text));
      total += tokens;
      if (!exact) continue;
      if (!this.pieceCounts.has(text)) this.pieceCounts.set(ownCopy(text), { tokens, lines: 0 });
      this.renderPieces.add(text);
    }
    return total;
  }

  /** Counts that left the ledger are forgotten once they pile up: those the latest render did not use go. */
  private forgetOldLines(): void {
    let renderLines = 0;
    for (const piece of this.renderPieces) renderLines += this.pieceCounts.get(piece)?.lines ?? 0;
    if (this.pieceCounts.size > FORGET_LINES_AFTER * this.renderPieces.size + FORGET_LINES_AFTER) {
      const kept = new Map<string, PieceCount>();
      for (const piece of this.renderPieces) {
        const count = this.pieceCounts.get(piece);
        if (count !== undefined) kept.set(ownCopy(piece), count);
      }
      this.pieceCounts = kept;
    }
    if (this.lineCounts.size <= FORGET_LINES_AFTER * renderLines + FORGET_LINES_AFTER) return;
    const kept = new Map<string, number>();
    for (const piece of this.renderPieces) {
      for (const line of piece.split('\n')) {
        const tokens = this.lineCounts.get(line);
        if (tokens !== undefined) kept.set(ownCopy(line), tokens);
      }
    }
    this.lineCounts = kept;
  }
}

function sameMembers<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const item of a) if (!b.has(item)) return false;
  return true;
}

/**
 * What a live message shows, a text per block: its text, its calls' input values, its results. The block's own strings,
 * not a copy of them joined: a large window's live messages are megabytes.
 */
function shownTexts(msg: Message): string[] {
  return msg.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'toolCall' ? callValues(b.input) : b.content));
}

/** A call's input values, one per line: derived once per input, which never changes. */
const callValues = memoizeByObject((input: Readonly<Record<string, unknown>>) => inputValues(input, Number.POSITIVE_INFINITY));
