/**
 * Token counts of whole texts remembered by their content: callers send the same instructions and
 * tool definitions with every request, and ask for the same counts again and again, so each is
 * counted once. Estimates (made while the tokenizer loads) are not remembered.
 */
import type { TokenCounter } from './counter';

/** Texts remembered at most; the oldest are forgotten first. */
export const REMEMBERED_TEXTS = 4096;

export class TextCounts {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly limit = REMEMBERED_TEXTS,
  ) {}

  async count(text: string): Promise<number> {
    const known = this.counts.get(text);
    if (known !== undefined) return known;
    const exact = !this.counter.estimated;
    const tokens = await this.counter.countText(text);
    if (exact && !this.counter.estimated) {
      if (this.counts.size >= this.limit) this.counts.delete(this.counts.keys().next().value as string);
      this.counts.set(text, tokens);
    }
    return tokens;
  }
}
