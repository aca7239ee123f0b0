/**
 * Where the tool calls of the archive are, by id, for facts of a span whose results answer calls made
 * before it. The archive only grows, so each update takes in only the messages added since the last;
 * only the calls' places are kept, and a call is read back from the archive when a span needs it.
 */
import { forEachArchived, type ArchivedMessages } from '../model/archivedMessages';
import type { Message, ToolCallBlock } from '../types';

export class CallIndex {
  /** 0-based archive index of the message that made each call. */
  private readonly places = new Map<string, number>();
  private seen = 0;
  private lastId: string | undefined;

  /**
   * Every call the messages make, with the calls made before them that their results answer, read from the archive:
   * what a reader of any run of these messages needs to find its calls. `after` are the messages read with them.
   */
  async callsFor(
    messages: readonly Message[],
    after: readonly Message[],
    archived: ArchivedMessages,
  ): Promise<ReadonlyMap<string, ToolCallBlock>> {
    await this.update(archived);
    const calls = new Map<string, ToolCallBlock>();
    for (const list of [messages, after]) for (const m of list) for (const b of m.blocks) if (b.type === 'toolCall') calls.set(b.id, b);
    const wanted = new Set<number>();
    for (const m of [...messages, ...after]) {
      for (const b of m.blocks) {
        const place = b.type === 'toolResult' && !calls.has(b.callId) ? this.places.get(b.callId) : undefined;
        if (place !== undefined) wanted.add(place);
      }
    }
    for (const index of wanted) {
      const [m] = await archived.read(index, index + 1);
      for (const b of m?.blocks ?? []) if (b.type === 'toolCall' && !calls.has(b.id)) calls.set(b.id, b);
    }
    return calls;
  }

  private async update(archived: ArchivedMessages): Promise<void> {
    if (archived.count < this.seen || (this.seen > 0 && archived.idAt(this.seen - 1) !== this.lastId)) {
      this.places.clear();
      this.seen = 0;
    }
    await forEachArchived(archived, this.seen, (m, index) => {
      for (const b of m.blocks) if (b.type === 'toolCall') this.places.set(b.id, index);
    });
    this.seen = archived.count;
    this.lastId = archived.idAt(archived.count - 1);
  }
}
