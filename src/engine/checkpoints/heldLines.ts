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

/** A whole word of a text read for its words. */
const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * A line's key as matching sees it, and the inner word it is looked for by: a whole word of the key
 * that does not stand at either end (an edge word may be part of a longer word in the text that
 * holds it), the longest, as its hash and where it starts in the key. Wherever the key stands, that
 * word stands at the same distance from its start. Undefined when the key has no inner word.
 */
const keyFormOf = memoizeByObject((line: EarlierLine): { readonly form: string; readonly word?: number; readonly at: number } => {
  const form = matchForm(line.key);
  let word: string | undefined;
  let at = 0;
  for (const match of form.matchAll(WORD)) {
    const inner = match.index > 0 && match.index + match[0].length < form.length;
    if (inner && (word === undefined || match[0].length > word.length)) [word, at] = [match[0], match.index];
  }
  return word === undefined ? { form, at } : { form, word: wordHash(word), at };
});

/** FNV-1a over a word's char codes, as a small integer. */
function wordHash(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  return hash >>> 2;
}

/** The lines of one pool that texts hold, remembered by the texts' lines while they are still in use. */
export class HeldLines {
  /** The pool's lines by the hash of the word they are looked for by. */
  private readonly byWord = new Map<number, EarlierLine[]>();
  /** Lines whose key has no inner word: looked for in every new line whole. */
  private readonly wordless: EarlierLine[] = [];
  /** What each line of the texts holds, for the lines of the last texts asked about. */
  private known = new Map<string, readonly EarlierLine[]>();

  constructor(readonly pool: readonly EarlierLine[]) {
    for (const line of pool) {
      const { form, word } = keyFormOf(line);
      if (form.length === 0) continue;
      if (word === undefined) this.wordless.push(line);
      else {
        const lines = this.byWord.get(word);
        if (lines) lines.push(line);
        else this.byWord.set(word, [line]);
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
        if (holds === undefined) holds = this.linesIn(matchForm(line));
        known.set(line, holds);
        for (const l of holds) held.add(l);
      }
    }
    this.known = known;
    return held;
  }

  private linesIn(form: string): readonly EarlierLine[] {
    if (form.length === 0) return NONE;
    const found: EarlierLine[] = [];
    for (const match of form.matchAll(WORD)) {
      const lines = this.byWord.get(wordHash(match[0]));
      if (!lines) continue;
      for (const line of lines) {
        const key = keyFormOf(line);
        if (match.index >= key.at && form.startsWith(key.form, match.index - key.at)) found.push(line);
      }
    }
    for (const line of this.wordless) if (form.includes(keyFormOf(line).form)) found.push(line);
    return found.length === 0 ? NONE : found;
  }
}

const NONE: readonly EarlierLine[] = [];
