/**
 * The requests a session sent, as a provider's prompt cache met them: each one's reuse of the one before
 * (`promptCache/sentPrefix.ts`) joins the session's tally and the latest point of its timeline. The hosts call it as
 * a request goes out; the replay, for each request that an answer followed.
 */
import { withRequest, EMPTY_CACHE_TALLY, type RequestReuse } from '../model/cacheTally';
import { SentPrefix } from '../promptCache/sentPrefix';
import type { TokenCounter } from '../tokens/counter';
import type { Message } from '../types';
import type { SessionStateCell } from './stateCell';

export interface SentRequestsDeps {
  readonly cell: SessionStateCell;
  readonly counter: TokenCounter;
}

export class SentRequests {
  private readonly prefix = new SentPrefix();

  constructor(private readonly deps: SentRequestsDeps) {}

  /** Records a request as it is sent and returns what it reused of the one before. */
  async record(messages: readonly Message[]): Promise<RequestReuse> {
    const { cell, counter } = this.deps;
    const measured = await counter.measure(messages);
    const reuse = this.prefix.record(messages, measured.messageTokens);
    const state = cell.state;
    const timeline = state.timeline;
    const last = timeline.at(-1);
    cell.update({
      promptCache: withRequest(state.promptCache ?? EMPTY_CACHE_TALLY, reuse),
      ...(last ? { timeline: [...timeline.slice(0, -1), { ...last, reused: reuse.reusedTokens }] } : {}),
    });
    return reuse;
  }

  /** Tokens of `messages` (each one's in `tokens`) that the last request sent the same, as a cache would read them. */
  reusedOf(messages: readonly Message[], tokens: readonly number[]): number {
    return this.prefix.reuseOf(messages, tokens).reusedTokens;
  }
}
