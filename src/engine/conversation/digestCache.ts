/**
 * Message digests remembered by the caller's message object: a caller that keeps its message
 * objects between requests (an extension in the same process) has each message hashed once.
 */
import { messageDigest } from './digest';
import type { IncomingMessage } from './incomingMessage';

export class DigestCache {
  private readonly byObject = new WeakMap<object, string>();

  /** The message's digest, from the cache when its caller object was seen before. */
  digestOf<Raw>(message: IncomingMessage<Raw>): string {
    const key = typeof message.raw === 'object' && message.raw !== null ? (message.raw as object) : undefined;
    const known = key ? this.byObject.get(key) : undefined;
    if (known) return known;
    const digest = messageDigest(message);
    if (key) this.byObject.set(key, digest);
    return digest;
  }
}
