/**
 * The facts of the spans checkpoints stand for, kept while those checkpoints last. Aging writes a
 * checkpoint again from its archived originals, but the facts of its span are the ones read when
 * the span was checkpointed (with the messages after it then), and a merged span's facts are the
 * best of its parts'. So aging the oldest checkpoint of a long session does not read its whole,
 * ever-growing span for facts again on every compression.
 */
import type { Fact } from '../model/fact';
import { combineFacts } from '../recall/selectFacts';

/** Spans remembered, the most recent; a session has far fewer checkpoints. */
export const REMEMBERED_SPANS = 64;

interface KnownSpan {
  readonly key: string;
  readonly firstId: string;
  readonly count: number;
  readonly lastId: string;
  readonly facts: readonly Fact[];
}

export class SpanFacts {
  private readonly spans = new Map<string, KnownSpan>();
  /** Keys of the remembered spans by their first message. */
  private readonly startingAt = new Map<string, Set<string>>();

  /**
   * The facts of the span of these message ids: remembered when the span is known, the best of its
   * known parts' together with those read from what no known part covers, or read whole (`read`
   * gets the ids of the messages to read). Remembered for next time.
   */
  async of(span: readonly string[], read: (ids: readonly string[]) => Promise<Fact[]>): Promise<Fact[]> {
    if (span.length === 0) return read(span);
    const groups: (readonly Fact[])[] = [];
    let uncovered: string[] = [];
    let known = 0;
    for (let i = 0; i < span.length;) {
      const part = this.longestKnown(span, i);
      if (part) {
        if (uncovered.length > 0) groups.push(await read(uncovered));
        uncovered = [];
        groups.push(part.facts);
        known++;
        i += part.count;
      } else {
        uncovered.push(span[i]);
        i++;
      }
    }
    if (known === 0) {
      const facts = await read(span);
      this.remember(span, facts);
      return facts;
    }
    if (uncovered.length > 0) groups.push(await read(uncovered));
    const facts = groups.length === 1 ? [...groups[0]] : combineFacts(groups);
    this.remember(span, facts);
    return facts;
  }

  private longestKnown(span: readonly string[], at: number): KnownSpan | undefined {
    let best: KnownSpan | undefined;
    for (const key of this.startingAt.get(span[at]) ?? []) {
      const known = this.spans.get(key);
      if (!known || at + known.count > span.length || span[at + known.count - 1] !== known.lastId) continue;
      if (!best || known.count > best.count) best = known;
    }
    return best;
  }

  private remember(span: readonly string[], facts: readonly Fact[]): void {
    const firstId = span[0];
    const lastId = span[span.length - 1];
    const key = `${firstId}\u0000${lastId}\u0000${span.length}`;
    this.spans.delete(key);
    this.spans.set(key, { key, firstId, count: span.length, lastId, facts });
    const keys = this.startingAt.get(firstId) ?? new Set<string>();
    keys.add(key);
    this.startingAt.set(firstId, keys);
    for (const [oldest, known] of this.spans) {
      if (this.spans.size <= REMEMBERED_SPANS) break;
      this.spans.delete(oldest);
      const sameStart = this.startingAt.get(known.firstId);
      sameStart?.delete(oldest);
      if (sameStart?.size === 0) this.startingAt.delete(known.firstId);
    }
  }
}
