/**
 * What an answer shows of ctx's work as it happens: the first event of each kind. A long turn makes hundreds of
 * events (each checkpoint ages the older ones, each large result goes to a file), and each one shown is one more
 * part of the response, which the chat lays out again at every round; the answer's summary counts them all at its end.
 */
import type { CompressionEvent } from '../model/compressionEvent';

export class FirstOfEachKind {
  private readonly shown = new Set<CompressionEvent['kind']>();

  /** The events of a kind not shown yet in this answer, the first of each, in order. */
  take(events: readonly CompressionEvent[]): CompressionEvent[] {
    const fresh: CompressionEvent[] = [];
    for (const event of events) {
      if (this.shown.has(event.kind)) continue;
      this.shown.add(event.kind);
      fresh.push(event);
    }
    return fresh;
  }
}
