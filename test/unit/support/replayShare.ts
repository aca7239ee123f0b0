/** Replaying constructed messages as `replay` does, in a window that is a share of their own size. */
import { replayTranscript, type ReplayResult } from '../../../src/cli/replay/replayTranscript';
import type { TranscriptFormat } from '../../../src/cli/import/importTypes';
import type { EngineOptions } from '../../../src/engine/options';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import * as assert from 'node:assert/strict';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from './builders';
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

/**
 * `turns` rounds of unrelated reads, each a request, a file of 50 to 99 lines and a one-line answer: the stretch that
 * pushes a constructed session's early work out of the live context. `line(k, next)` writes a file's k-th line.
 */
export function unrelatedReads(turns: number, next: () => number, line: (k: number, next: () => number) => string): Message[] {
  const messages: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const lines = Array.from({ length: 50 + Math.floor(next() * 50) }, (_, k) => line(k, next));
    messages.push(user(`Read file ${turn} of the batch.`));
    messages.push(call(`read${turn}`, 'read_file', { path: `batch/file_${turn}.txt` }));
    messages.push(result(`read${turn}`, lines.join('\n')));
    messages.push(assistant(`File ${turn} is in order.`));
  }
  return messages;
}

/** The final context of a replay as text, once it is shown that the session was compressed and `goneCallId` is no longer live. */
export function compressedContext({ final, figures }: ReplayResult, goneCallId: string): string {
  assert.ok(figures.checkpoints > 0, 'the session was compressed');
  const live = final?.messages ?? [];
  assert.ok(!live.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === goneCallId)), `${goneCallId} is no longer live`);
  return live.map(messageText).join('\n');
}
