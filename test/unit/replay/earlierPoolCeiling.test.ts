import * as assert from 'node:assert/strict';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { EARLIER_POOL_MAX_TOKENS } from '../../../src/engine/checkpoints/earlierLines';
import type { EncodingName, Tokenizer } from '../../../src/engine/ports';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { call, result, user } from '../support/builders';

/** Forty tokens a character: a session of a few hundred thousand characters is one of millions of tokens, a 1M-token window's. */
class DenseTokenizer implements Tokenizer {
  readonly encoding: EncodingName = 'o200k_base';
  readonly ready = true;
  async whenReady(): Promise<void> {}
  async countMany(texts: readonly string[]): Promise<number[]> {
    return texts.map((t) => t.length * 40);
  }
}

/** Rounds of a refactor, each with a sentence of its own and a command's output. */
function refactorSession(rounds: number) {
  const messages = [user('Split the ledger writer into one module per table, keeping every test green.')];
  for (let i = 0; i < rounds; i++) {
    messages.push(
      call(
        `c${i}`,
        'bash',
        { command: `npm test -- ledger_${i}` },
        `I moved parse_row_${i} into reader_${i}.ts so that writer_${i}.ts no longer imports shard_${i}.`,
      ),
      result(`c${i}`, `ledger_${i}: ${(i * 7) % 23} tests passed in shard_${i}\n`.repeat(10)),
    );
  }
  return messages;
}

describe('the earlier lines of a window larger than the default ceiling', () => {
  it('keep a pool no larger than the one of a budget at the ceiling in a 1M-token window, taking the lowest-scored lines out', async () => {
    const counter = new TokenCounter(new DenseTokenizer());
    const messages = refactorSession(120);
    const input = (await counter.measure(messages)).total;
    const budget = 1_000_000;
    assert.ok(input > 2 * budget, `${input} tokens of input`);
    // Half of this budget would hold 500,000 tokens of lines: the session offers more than the ceiling's 100,000.
    const { session, figures } = await replayTranscript(
      { format: 'openai', messages },
      { maxInputTokens: budget, store: new MemoryStore(), counter },
    );
    assert.ok(figures.checkpoints > 1, 'the replay summarized its history');
    const pool = session.state.earlierLines;
    const poolTokens = pool.reduce((sum, l) => sum + l.tokens, 0);
    assert.ok(poolTokens <= EARLIER_POOL_MAX_TOKENS, `${poolTokens} tokens in the pool`);
    const added = Math.max(...pool.map((l) => l.order));
    assert.ok(added > pool.length, `${added - pool.length} of ${added} lines taken out`);
    session.dispose();
  });
});
