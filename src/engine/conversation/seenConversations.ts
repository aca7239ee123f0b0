/**
 * The conversations of the latest requests, message by message with their chain digests. A caller
 * re-sends the whole history as new objects with every request; the part equal to what was seen
 * before takes its chain digests from there (a comparison, cheaper than hashing by an order of
 * magnitude), and only the messages after it are hashed. The messages kept are the first objects
 * seen for each, which the session holds anyway while they are in its context.
 */
import { chainDigest, messageDigest, type DigestInput } from './digest';
import { sameMessage } from './sameMessage';

/** Conversations remembered; the least recently used is forgotten first. */
export const REMEMBERED_CONVERSATIONS = 4;

export interface SeenMessage {
  readonly message: DigestInput;
  /** The message's own digest. */
  readonly digest: string;
  /** Chain digest of the conversation up to and including this message. */
  readonly chain: string;
}

export interface ChainedRequest {
  readonly chain: readonly string[];
  /** Each message's own digest. */
  readonly digests: readonly string[];
  /** The request's messages as remembered: seen ones as first seen, new ones as they came. */
  readonly seen: readonly SeenMessage[];
  /** Messages that had to be hashed. */
  readonly hashed: number;
}

export class SeenConversations {
  private readonly conversations = new Map<string, readonly SeenMessage[]>();

  constructor(
    private readonly limit = REMEMBERED_CONVERSATIONS,
    private readonly digest: (m: DigestInput) => string = messageDigest,
  ) {}

  /** Chain digests of a request's messages, hashing only what follows the longest prefix seen before. */
  chainFor(messages: readonly DigestInput[]): ChainedRequest {
    let best: readonly SeenMessage[] = [];
    let common = 0;
    for (const seen of this.conversations.values()) {
      const n = equalPrefix(seen, messages, common);
      if (n > common) {
        best = seen;
        common = n;
      }
    }
    const seen: SeenMessage[] = best.slice(0, common);
    let previous = seen[common - 1]?.chain;
    for (let i = common; i < messages.length; i++) {
      const { role, blocks, extra } = messages[i];
      const digest = this.digest(messages[i]);
      previous = chainDigest(previous, digest);
      // Only what identifies the message is kept, not the caller's object around it.
      seen.push({ message: { role, blocks, extra }, digest, chain: previous });
    }
    return { chain: seen.map((s) => s.chain), digests: seen.map((s) => s.digest), seen, hashed: messages.length - common };
  }

  /** Remembers a session's conversation as of its latest request. */
  remember(sessionId: string, seen: readonly SeenMessage[]): void {
    this.conversations.delete(sessionId);
    this.conversations.set(sessionId, seen);
    while (this.conversations.size > this.limit) this.conversations.delete(this.conversations.keys().next().value as string);
  }
}

/** How many leading messages are equal; 0 when the candidate cannot beat the `atLeast` found already. */
function equalPrefix(seen: readonly SeenMessage[], messages: readonly DigestInput[], atLeast: number): number {
  const max = Math.min(seen.length, messages.length);
  if (max <= atLeast) return 0;
  let n = 0;
  while (n < max && sameMessage(seen[n].message, messages[n])) n++;
  return n;
}
