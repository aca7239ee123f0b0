import { silentLogger, type Logger, type Tokenizer } from '../ports';
import type { Block, Message } from '../types';
import { blockText } from './blockText';
import { estimateTokens } from './estimate';

/**
 * Token accounting for conversations in OpenAI's chat format. The figures follow OpenAI's
 * cookbook ("How to count tokens with tiktoken"), which matches the API's reported usage for
 * GPT-3.5, GPT-4 and GPT-4o; other vendors frame messages differently, but by a similar amount.
 */

/**
 * Each message is framed as `<|start|>{role}\n{content}<|end|>\n`: the cookbook's
 * `tokens_per_message = 3` covers the framing, and it encodes the role name on top, which is one
 * token for every role (`system`, `user`, `assistant`, `tool`) in both encodings.
 */
export const MESSAGE_OVERHEAD_TOKENS = 3 + 1;

/** Every reply is primed with `<|start|>assistant<|message|>` (the cookbook's final `+ 3`). */
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Framing of one tool call beyond its name and JSON arguments. OpenAI does not publish it; 3 is
 * what openai-chat-tokens (hmarr) measured against the API's usage for a function call.
 */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;

/** A conversation's size in tokens. */
export interface Measurement {
  /** All messages with their overheads, plus the reply priming. */
  readonly total: number;
  /**
   * Each message's tokens, overhead included, in the order the messages were measured: a list of
   * numbers rather than a map by id, since a 1M-token window's context is thousands of messages
   * measured several times a request.
   */
  readonly messageTokens: readonly number[];
  /** True when some count is an estimate because the exact tokenizer was not ready. */
  readonly estimated: boolean;
}

/**
 * Counts messages over a {@link Tokenizer}, remembering each block's exact count by object:
 * blocks are immutable, so measuring a conversation again after a new message only counts the
 * new message's blocks. While the tokenizer is not ready it never waits: it asks for the encoder
 * to be built and answers with estimates, which it does not remember.
 */
export class TokenCounter {
  private readonly exactCounts = new WeakMap<Block, number>();
  /**
   * Each message's tokens once all its blocks are counted exactly: a large window's context is
   * thousands of messages measured several times a request, and only the new ones need their
   * blocks looked at.
   */
  private readonly exactMessages = new WeakMap<Message, number>();
  private buildRequested = false;

  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** True while the tokenizer is not ready, so counts would be estimates. */
  get estimated(): boolean {
    return !this.tokenizer.ready;
  }

  /** Counts every message and the reply priming. */
  async measure(messages: readonly Message[]): Promise<Measurement> {
    const exact = await this.countNewBlocks(messages);
    // Made at its size: grown one push at a time, a 1M-token window's list is copied over and over on every request.
    const messageTokens = new Array<number>(messages.length);
    let total = REPLY_PRIMING_TOKENS;
    for (let i = 0; i < messages.length; i++) {
      const tokens = this.messageTokens(messages[i]);
      messageTokens[i] = tokens;
      total += tokens;
    }
    return { total, messageTokens, estimated: !exact };
  }

  /** A message's blocks plus {@link MESSAGE_OVERHEAD_TOKENS} (and the framing of its tool calls). */
  async countMessage(msg: Message): Promise<number> {
    await this.countNewBlocks([msg]);
    return this.messageTokens(msg);
  }

  /**
   * A block's tokens, counted once: measuring its message later does not count it again. Intake
   * counts every tool result to decide whether to offload it, and most are kept as they are.
   */
  async countBlock(block: Block): Promise<number> {
    await this.countBlocks(this.exactCounts.has(block) ? [] : [block]);
    return this.blockTokens(block);
  }

  /**
   * A block's tokens as the last measurement counted them (an estimate for a block not counted
   * exactly yet), without its message's framing: what a breakdown of a measured message adds up.
   */
  blockTokens(block: Block): number {
    return this.exactCounts.get(block) ?? estimateTokens(blockText(block));
  }

  /**
   * Takes `tokens` as the count of `block`, whose maker summed it from parts counted exactly (an upper
   * bound of the whole), so that a large block made of known parts is not tokenized again. Ignored while
   * the tokenizer is not ready, and for a block counted already.
   */
  knowBlock(block: Block, tokens: number): void {
    if (this.tokenizer.ready && !this.exactCounts.has(block)) this.exactCounts.set(block, tokens);
  }

  /** Exact when the tokenizer is ready, an estimate otherwise. */
  async countText(text: string): Promise<number> {
    const [count] = await this.countTexts([text]);
    return count;
  }

  /** Counts of several texts in one batch (one round trip to a worker), in order; estimates while the tokenizer is not ready. */
  async countTexts(texts: readonly string[]): Promise<number[]> {
    if (texts.length === 0) return [];
    if (!this.tokenizer.ready) {
      this.requestBuild();
      return texts.map(estimateTokens);
    }
    try {
      return await this.tokenizer.countMany(texts);
    } catch (error) {
      this.logger.warn('Token counting failed; using an estimate', error);
      return texts.map(estimateTokens);
    }
  }

  /**
   * Counts the blocks not counted yet, in one batch.
   * @returns false when some block is left to estimates (tokenizer not ready or failing)
   */
  private async countNewBlocks(messages: readonly Message[]): Promise<boolean> {
    const uncounted: Block[] = [];
    for (const msg of messages) {
      if (this.exactMessages.has(msg)) continue;
      for (const block of msg.blocks) {
        if (!this.exactCounts.has(block)) uncounted.push(block);
      }
    }
    return this.countBlocks(uncounted);
  }

  /** Counts these blocks in one batch; false when they are left to estimates. */
  private async countBlocks(uncounted: readonly Block[]): Promise<boolean> {
    if (uncounted.length === 0) return true;
    if (!this.tokenizer.ready) {
      this.requestBuild();
      return false;
    }
    try {
      const counts = await this.tokenizer.countMany(uncounted.map(blockText));
      uncounted.forEach((block, i) => this.exactCounts.set(block, counts[i]));
      return true;
    } catch (error) {
      this.logger.warn('Token counting failed; using estimates', error);
      return false;
    }
  }

  private messageTokens(msg: Message): number {
    const known = this.exactMessages.get(msg);
    if (known !== undefined) return known;
    let tokens = MESSAGE_OVERHEAD_TOKENS;
    let exact = true;
    for (const block of msg.blocks) {
      const count = this.exactCounts.get(block);
      if (count === undefined) exact = false;
      tokens += count ?? estimateTokens(blockText(block));
      if (block.type === 'toolCall') tokens += TOOL_CALL_OVERHEAD_TOKENS;
    }
    if (exact) this.exactMessages.set(msg, tokens);
    return tokens;
  }

  /** Starts the encoder build once, without waiting for it. */
  private requestBuild(): void {
    if (this.buildRequested) return;
    this.buildRequested = true;
    this.tokenizer.whenReady().catch((error: unknown) => {
      this.logger.warn('The tokenizer could not be built; token counts stay estimates', error);
    });
  }
}
