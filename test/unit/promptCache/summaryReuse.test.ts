import * as assert from 'node:assert/strict';
import { assistant, call, filler, result, user } from '../support/builders';
import { sessionRig } from '../support/session';

const BUDGET = 12_000;

describe('a checkpoint’s summary request, as the prompt cache meets it', () => {
  it('is counted as the conversation the model last read plus the question: nearly all of it read from the cache', async () => {
    const { session } = sessionRig();
    await session.add([user('Port every module to the new API.')]);
    for (let i = 1; i <= 40 && session.checkpoints.length === 0; i++) {
      await session.add([
        call(`c${i}`, 'run_in_terminal', { command: `npm run port -- module${i}` }),
        result(`c${i}`, `module${i} ported\n${filler(250, `module${i}`)}`, false, 'run_in_terminal'),
        assistant(`Module ${i} is ported.`),
      ]);
      const prepared = await session.prepare(BUDGET);
      await session.recordSent(prepared.messages);
    }
    const tally = session.state.promptCache;
    assert.ok(tally && tally.summaryRequests >= 1, 'a checkpoint asked for a summary');
    const lastRequest = tally.sentTokens / tally.requests;
    assert.ok(tally.summaryInputTokens > lastRequest, 'the request holds the conversation, not only the span');
    const read = (tally.summaryReusedTokens ?? 0) / tally.summaryInputTokens;
    assert.ok(read >= 0.6, `${(read * 100).toFixed(0)}% of the summary request read from the cache`);
  });
});
