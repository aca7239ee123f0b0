/**
 * What each request sent shares with the one before it. Providers cache a request by its exact prefix
 * (Anthropic, OpenAI and Gemini alike): the leading messages a request repeats from the previous one are read
 * from the cache, the rest is read, and written to the cache, in full. This is the one place that remembers what
 * was sent, message by message, so every host counts the same way.
 */
import type { RequestReuse } from '../model/cacheTally';
import type { Message } from '../types';

/** The messages of the previous request and their tokens. */
interface Sent {
  readonly messages: readonly Message[];
  readonly tokens: readonly number[];
}

export class SentPrefix {
  private last: Sent | undefined;

  /**
   * Records a request (its messages and each one's tokens, in order) and says what it reused of the previous one.
   * A message is the same when it is the same object (the engine never changes a message in place) or, after a
   * reload has made new objects, when its role and blocks are equal.
   */
  record(messages: readonly Message[], tokens: readonly number[]): RequestReuse {
    const reuse = this.reuseOf(messages, tokens);
    this.last = { messages, tokens };
    return reuse;
  }

  /** What a request of these messages would reuse of the last one recorded, without recording it. */
  reuseOf(messages: readonly Message[], tokens: readonly number[]): RequestReuse {
    const last = this.last;
    const sentTokens = sum(tokens, 0, messages.length);
    if (last === undefined) return { sentTokens, reusedTokens: 0, invalidatedTokens: 0 };
    let shared = 0;
    const most = Math.min(messages.length, last.messages.length);
    while (shared < most && sameMessage(messages[shared], last.messages[shared])) shared++;
    return {
      sentTokens,
      reusedTokens: sum(tokens, 0, shared),
      invalidatedTokens: sum(last.tokens, shared, last.messages.length),
    };
  }

  /** Forgets what was sent: the next request is a first one (a new conversation, a cleared session). */
  forget(): void {
    this.last = undefined;
  }
}

function sum(values: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i++) total += values[i] ?? 0;
  return total;
}

function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  if (a.role !== b.role || a.blocks.length !== b.blocks.length) return false;
  return a.blocks.every((block, i) => block === b.blocks[i] || JSON.stringify(block) === JSON.stringify(b.blocks[i]));
}
