/**
 * `provideTokenCount` for ctx's models: callers ask for many counts while they build one prompt,
 * so each text is counted once (remembered by content) in the encoding of the wrapped model, and
 * messages are counted as ctx will send them (a result tier 1 will offload counts as its preview).
 */
import type * as vscode from 'vscode';
import { TextCounts, type TokenCounter } from '../../engine/host/ports';
import { messageTokensAsSent } from '../../engine/host/relay';
import { optionsForBudget } from '../../engine/host/settings';
import type { CtxConfig } from '../config';
import type { SessionManager } from '../sessions';
import { toIncoming } from './incoming';

export interface SentTokenCounterDeps {
  readonly sessions: SessionManager;
  readonly config: () => CtxConfig;
}

export class SentTokenCounter {
  private readonly texts = new WeakMap<TokenCounter, TextCounts>();

  constructor(private readonly deps: SentTokenCounterDeps) {}

  /** Remembered counts in the encoding of a model family. */
  countsFor(family: string): TextCounts {
    const counter = this.deps.sessions.counterFor(family);
    let counts = this.texts.get(counter);
    if (!counts) this.texts.set(counter, (counts = new TextCounts(counter)));
    return counts;
  }

  /** Tokens of a text, or of a message as ctx will send it to a model of `wrappedInputTokens` tokens. */
  async count(family: string, wrappedInputTokens: number, input: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    const counts = this.countsFor(family);
    if (typeof input === 'string') return counts.count(input);
    const budget = this.deps.sessions.budgetFor(wrappedInputTokens);
    return messageTokensAsSent(toIncoming(input).blocks, {
      count: (t) => counts.count(t),
      offloadThresholdTokens: optionsForBudget(this.deps.config().engine, budget).offloadThresholdTokens,
    });
  }
}
