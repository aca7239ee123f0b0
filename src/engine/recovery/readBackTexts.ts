/**
 * The texts a search read back from the store lately, by document number, the least recently used leaving first.
 * The recall check searches once per fact after every checkpoint, and its candidates keep landing on the same few
 * offloaded files and messages: without these, each search reads them from the disk again.
 */

/**
 * Characters kept at most: about 30 offloaded results of the size that goes to a file (15,000 tokens), a few
 * megabytes of memory. @default 2000000
 */
export const READ_BACK_CHARS = 2_000_000;

export class ReadBackTexts {
  /** In order of use, the least recent first (a `Map` keeps its insertion order). */
  private readonly texts = new Map<number, string>();
  private chars = 0;

  constructor(private readonly maxChars: number = READ_BACK_CHARS) {}

  /** The text of document `n` when it is kept, which makes it the most recently used. */
  get(n: number): string | undefined {
    const text = this.texts.get(n);
    if (text === undefined) return undefined;
    this.texts.delete(n);
    this.texts.set(n, text);
    return text;
  }

  /** Keeps a text read back, unless it alone is over the limit; the least recently used leave until it fits. */
  keep(n: number, text: string): void {
    if (text.length > this.maxChars) return;
    this.forget(n);
    this.texts.set(n, text);
    this.chars += text.length;
    for (const [oldest, old] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(oldest);
      this.chars -= old.length;
    }
  }

  /** Forgets document `n`: it left the index, and its text need not stay in memory (numbers are never given again). */
  forget(n: number): void {
    const text = this.texts.get(n);
    if (text === undefined) return;
    this.texts.delete(n);
    this.chars -= text.length;
  }

  /** Forgets every text (a session's archive was rewritten and its messages forgotten). */
  clear(): void {
    this.texts.clear();
    this.chars = 0;
  }

  /** Characters kept now. */
  get size(): number {
    return this.chars;
  }
}
