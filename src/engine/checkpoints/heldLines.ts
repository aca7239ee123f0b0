/**
 * Which lines of the earlier lines' pool are held already (design §4.1): a line that the ledger, a
 * checkpoint or the ledger's facts show word for word needs no place of its own. A line is held
 * when one line of those texts holds its key, as matching sees both. The texts change with nearly
 * every request (the ledger follows each command and file), but only a few of their lines do: each
 * line is looked at once and what it holds remembered, so a request's work follows what changed
 * instead of the size of the ledger, which a 1M-token window makes long.
 */
import type { EarlierLine } from '../model/earlierLine';
import { matchForm } from '../facts/factKey';
import { memoizeByObject } from '../memo';
import { FNV_OFFSET_BASIS, fnv1a } from '../text/fnv';
import { forEachWord } from '../text/wordSpans';

/**
 * A line's key as matching sees it, and the words it is looked for by. An inner word of a key (one
 * that does not stand at either end, where it may be part of a longer word of the text that holds
 * it) stands whole, at the same distance from the key's start, wherever the key stands. A key is
 * looked for by its longest two inner words in a row, from the first's start to the second's end
 * (two words in a row are rarer than one: a session's lines share their common words), else by
 * its longest inner word; as a hash, with where it starts in the key. `by` is undefined when the
 * key has no inner word.
 */
const keyFormOf = memoizeByObject(
  (line: EarlierLine): { readonly form: string; readonly by?: number; readonly pair: boolean; readonly at: number } => {
    const form = matchForm(line.key);
    const inner: { readonly start: number; readonly end: number }[] = [];
    forEachWord(form, (start, end) => {
      if (start > 0 && end < form.length) inner.push({ start, end });
    });
    let best: { readonly start: number; readonly end: number } | undefined;
    let pair = false;
    for (let i = 0; i + 1 < inner.length; i++) {
      const span = { start: inner[i].start, end: inner[i + 1].end };
      if (!best || span.end - span.start > best.end - best.start) [best, pair] = [span, true];
    }
    if (!best) for (const word of inner) if (!best || word.end - word.start > best.end - best.start) best = word;
    return best === undefined ? { form, pair, at: 0 } : { form, by: textHash(form, best.start, best.end), pair, at: best.start };
  },
);

/** FNV-1a over the char codes of `text` from `start` to `end`, as a small integer. */
function textHash(text: string, start: number, end: number): number {
  return fnv1a(text, FNV_OFFSET_BASIS, start, end) >>> 2;
}

/** The lines of one pool that texts hold, remembered by the texts' lines while they are still in use. */
export class HeldLines {
  /** The pool's lines by the hash of the two words in a row they are looked for by. */
  private readonly byPair = new Map<number, EarlierLine[]>();
  /** The pool's lines by the hash of the one word they are looked for by. */
  private readonly byWord = new Map<number, EarlierLine[]>();
  /** Lines whose key has no inner word: looked for in every new line whole. */
  private readonly wordless: EarlierLine[] = [];
  /** What each line of the texts holds, for the lines of the last texts asked about. */
  private known = new Map<string, readonly EarlierLine[]>();
  /** What each pool line's text holds whole, for the lines asked about. */
  private readonly heldByLine = new WeakMap<EarlierLine, readonly EarlierLine[]>();
  /** The lines of the pool before this one, and what was worked out for it: a pool changes by a few lines at a time. */
  private before: { readonly held: HeldLines; readonly members: ReadonlySet<EarlierLine>; readonly added: HeldLines } | undefined;

  /**
   * The held lines of `pool`; `previous`, those of the pool it grew from, lends what it worked out: a
   * text line or a pool line is then read only against the lines added since, not the whole pool again.
   */
  constructor(
    readonly pool: readonly EarlierLine[],
    previous?: HeldLines,
  ) {
    if (previous) {
      // One pool back at most: what the previous pool borrowed is not kept alive.
      previous.before = undefined;
      const members = new Set(pool);
      const was = new Set(previous.pool);
      this.before = { held: previous, members, added: new HeldLines(pool.filter((l) => !was.has(l))) };
    }
    for (const line of pool) {
      const { form, by, pair } = keyFormOf(line);
      if (form.length === 0) continue;
      if (by === undefined) this.wordless.push(line);
      else {
        const index = pair ? this.byPair : this.byWord;
        const lines = index.get(by);
        if (lines) lines.push(line);
        else index.set(by, [line]);
      }
    }
  }

  /** The pool's lines that some line of `texts` holds. */
  heldBy(texts: readonly string[]): ReadonlySet<EarlierLine> {
    const held = new Set<EarlierLine>();
    const known = new Map<string, readonly EarlierLine[]>();
    for (const text of texts) {
      for (const line of text.split('\n')) {
        let holds = known.get(line) ?? this.known.get(line);
        if (holds === undefined) {
          const lent = this.before?.held.known.get(line);
          holds = lent === undefined ? this.linesIn(matchForm(line)) : this.carried(lent, (added) => added.linesIn(matchForm(line)));
          if (holds.length > 0 && CUT_END.test(line)) holds = wholeIn(line, holds);
        }
        known.set(line, holds);
        for (const l of holds) held.add(l);
      }
    }
    this.known = known;
    return held;
  }

  /**
   * The pool's other lines that `line`'s own text holds whole: a name said in a sentence of the pool
   * needs no place of its own beside that sentence. Read once per line, since a line's text never changes.
   */
  othersHeldBy(line: EarlierLine): readonly EarlierLine[] {
    let held = this.heldByLine.get(line);
    if (held === undefined) {
      const lent = this.before?.held.heldByLine.get(line);
      held = lent === undefined ? this.wholeLinesIn(line) : this.carried(lent, (added) => added.wholeLinesIn(line));
      this.heldByLine.set(line, held.length === 0 ? NONE : held);
    }
    return held;
  }

  /** The pool's lines other than `line` that its text holds whole, not only by their key: a line that says more than its key keeps its place. */
  private wholeLinesIn(line: EarlierLine): readonly EarlierLine[] {
    const form = matchForm(line.text);
    return this.linesIn(form).filter((other) => other !== line && form.includes(matchForm(other.text.replace(LINE_MARK, ''))));
  }

  /** What the previous pool found, less the lines that left, with what `inAdded` finds among the lines added since. */
  private carried(lent: readonly EarlierLine[], inAdded: (added: HeldLines) => readonly EarlierLine[]): readonly EarlierLine[] {
    const before = this.before;
    if (before === undefined) return lent;
    const stayed = lent.filter((l) => before.members.has(l));
    const added = inAdded(before.added);
    return stayed.length === 0 && added.length === 0 ? NONE : [...stayed, ...added];
  }

  private linesIn(form: string): readonly EarlierLine[] {
    if (form.length === 0) return NONE;
    const found: EarlierLine[] = [];
    const lookUp = (index: ReadonlyMap<number, readonly EarlierLine[]>, start: number, end: number) => {
      const lines = index.get(textHash(form, start, end));
      if (!lines) return;
      for (const line of lines) {
        const key = keyFormOf(line);
        if (start >= key.at && form.startsWith(key.form, start - key.at)) found.push(line);
      }
    };
    let previousStart = -1;
    forEachWord(form, (start, end) => {
      lookUp(this.byWord, start, end);
      if (previousStart >= 0) lookUp(this.byPair, previousStart, end);
      previousStart = start;
    });
    for (const line of this.wordless) if (form.includes(keyFormOf(line).form)) found.push(line);
    return found.length === 0 ? NONE : found;
  }
}

const NONE: readonly EarlierLine[] = [];
/** A line cut at its end (`shortenEnd`): what followed the ellipsis is not shown there. */
const CUT_END = /…\s*$/;

/**
 * Of the pool lines whose key `line` holds, those it shows whole: a checkpoint's line cut short holds a long
 * sentence's start, the key, and none of the rest, which only the pool's own line can still show.
 */
function wholeIn(line: string, holds: readonly EarlierLine[]): readonly EarlierLine[] {
  const shown = matchForm(line.replace(CUT_END, ''));
  const whole = holds.filter((l) => shown.includes(matchForm(l.text.replace(LINE_MARK, '').replace(CUT_END, ''))));
  return whole.length === 0 ? NONE : whole;
}
/** The mark a pool line is shown with: `- ` for a line of the agent or a tool, `> ` for a line of an offloaded file. */
const LINE_MARK = /^[->]\s+/;
