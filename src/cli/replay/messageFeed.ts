/**
 * The messages a replay goes through, in order. A draining feed lets go of each message once the replay took it, so a
 * long transcript's messages are not all held until the replay ends: the session's archive keeps them on disk.
 */
import type { Message } from '../../engine/host/messages';

export class MessageFeed {
  private taken = 0;

  private constructor(
    private readonly slots: readonly (Message | undefined)[],
    private readonly clear: ((index: number) => void) | undefined,
  ) {}

  /** A feed over messages that stay where they are. */
  static of(messages: readonly Message[]): MessageFeed {
    return new MessageFeed(messages, undefined);
  }

  /** A feed that empties each slot of `messages` once its message is taken: the caller gives the array up. */
  static draining(messages: Message[]): MessageFeed {
    const slots: (Message | undefined)[] = messages;
    return new MessageFeed(slots, (index) => {
      slots[index] = undefined;
    });
  }

  /** Messages in the feed, taken or not. */
  get count(): number {
    return this.slots.length;
  }

  /** The messages not taken yet, in order, without taking them. */
  *remaining(): Generator<Message> {
    for (let i = this.taken; i < this.slots.length; i++) {
      const message = this.slots[i];
      if (message) yield message;
    }
  }

  /** The next message, or undefined after the last. */
  take(): Message | undefined {
    if (this.taken >= this.slots.length) return undefined;
    const message = this.slots[this.taken];
    this.clear?.(this.taken);
    this.taken++;
    return message;
  }
}
