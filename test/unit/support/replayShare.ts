/** Replaying constructed messages as `replay` does, in a window that is a share of their own size. */
import { replayTranscript, type ReplayResult } from '../../../src/cli/replay/replayTranscript';
import type { TranscriptFormat } from '../../../src/cli/import/importTypes';
import type { EngineOptions } from '../../../src/engine/options';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import type { Message } from '../../../src/engine/types';
import { CharTokenizer } from './fakes';

export interface ShareOfInput {
  /** The share of the messages' tokens the window holds. @default 0.5 */
  readonly share?: number;
  /** Tokens added to that share, as the answer reserve the probes add. @default 4096 */
  readonly plusTokens?: number;
  /** @default 'openai' */
  readonly format?: TranscriptFormat;
  readonly engine?: EngineOptions;
}

/** The messages replayed in memory, counted by the CharTokenizer, with a maximum input of `share` of their tokens plus `plusTokens`. */
export async function replayAtShareOfInput(messages: Message[], options: ShareOfInput = {}): Promise<ReplayResult> {
  const counter = new TokenCounter(new CharTokenizer());
  const input = (await counter.measure(messages)).total;
  return replayTranscript(
    { format: options.format ?? 'openai', messages },
    {
      maxInputTokens: Math.ceil(input * (options.share ?? 0.5)) + (options.plusTokens ?? 4_096),
      store: new MemoryStore(),
      counter,
      ...(options.engine ? { engine: options.engine } : {}),
    },
  );
}
