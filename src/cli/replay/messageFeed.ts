/**
 * The messages a replay goes through, in order. A draining feed lets go of each message once the replay took it, so a
 * long transcript's messages are not all held until the replay ends: the session's archive keeps them on disk. A packed
 * feed also holds the messages not replayed yet as their JSON in bytes outside the JavaScript heap: the heap's next
 * limit is a multiple of what survives a collection, so a whole imported session held as objects at the start of a
 * long replay set its peak.
 */
import type { Message } from '../../engine/host/messages';

export class MessageFeed {
  private taken = 0;

  private constructor(
    /** Messages in the feed, taken or not. */
    readonly count: number,
    private readonly read: (index: number) => Message | undefined,
    private readonly clear: ((index: number) => void) | undefined,
  ) {}

  /** A feed over messages that stay where they are. */
  static of(messages: readonly Message[]): MessageFeed {
    return new MessageFeed(messages.length, (index) => messages[index], undefined);
  }

  /** A feed that empties each slot of `messages` once its message is taken: the caller gives the array up. */
  static draining(messages: Message[]): MessageFeed {
    const slots: (Message | undefined)[] = messages;
    return new MessageFeed(
      slots.length,
      (index) => slots[index],
      (index) => {
        slots[index] = undefined;
      },
    );
  }

  /**
   * A feed that holds each message as its JSON in bytes until it is taken, and empties `messages` at once: the caller
   * gives the array up. Messages are plain data (the archive stores them as JSON too), so each is read back as it was.
   */
  static packed(messages: Message[]): MessageFeed {
    const bytes: (Buffer | undefined)[] = messages.map((m) => Buffer.from(JSON.stringify(m), 'utf8'));
    messages.length = 0;
    return new MessageFeed(
      bytes.length,
      (index) => {
        const packed = bytes[index];
        return packed ? (JSON.parse(packed.toString('utf8')) as Message) : undefined;
      },
      (index) => {
        bytes[index] = undefined;
      },
    );
  }

  /** The messages not taken yet, in order, without taking them. */
  *remaining(): Generator<Message> {
    for (let i = this.taken; i < this.count; i++) {
      const message = this.read(i);
      if (message) yield message;
    }
  }

  /** The next message, or undefined after the last. */
  take(): Message | undefined {
    if (this.taken >= this.count) return undefined;
    const message = this.read(this.taken);
    this.clear?.(this.taken);
    this.taken++;
    return message;
  }
}
