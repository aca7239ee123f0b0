/**
 * The tool calls of the archive by id, for facts of a span whose results answer calls made
 * before it. The archive only grows, so each look-up takes in only the messages added since the last.
 */
import type { Message, ToolCallBlock } from '../types';

export class CallIndex {
  private readonly calls = new Map<string, ToolCallBlock>();
  private seen = 0;

  /** The call with this id among `archived` (the archive in order, as it stands). */
  find(archived: readonly Message[], id: string): ToolCallBlock | undefined {
    if (archived.length < this.seen) {
      this.calls.clear();
      this.seen = 0;
    }
    for (; this.seen < archived.length; this.seen++) {
      for (const b of archived[this.seen].blocks) if (b.type === 'toolCall') this.calls.set(b.id, b);
    }
    return this.calls.get(id);
  }
}
