import * as assert from 'node:assert/strict';
import { describePromptCache } from '../../../src/engine/activity/promptCacheWording';
import { contextStatus } from '../../../src/engine/activity/contextStatus';
import { renderStatusReport } from '../../../src/engine/activity/statusReport';
import { EMPTY_CACHE_TALLY } from '../../../src/engine/model/cacheTally';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { assistant, call, filler, result, user } from '../support/builders';
import { sessionRig } from '../support/session';

const BUDGET = 20_000;

describe('what the prompt cache met, in words', () => {
  it('says nothing before the first request', () => {
    assert.equal(describePromptCache(undefined), undefined);
    assert.equal(describePromptCache(EMPTY_CACHE_TALLY), undefined);
  });

  it('gives the share reused, the rewrites and the summary requests, and the input priced against sending it uncached', () => {
    const line = describePromptCache({
      ...EMPTY_CACHE_TALLY,
      requests: 10,
      sentTokens: 100_000,
      reusedTokens: 90_000,
      rebases: 1,
      invalidatedTokens: 8_000,
      summaryRequests: 1,
      summaryInputTokens: 5_000,
      summaryReusedTokens: 4_000,
    });
    // 90,000 read at 0.1, 10,000 written at 1.25; of the summary's 5,000, 4,000 read and 1,000 written: 23,150 of 105,000.
    assert.equal(
      line,
      '90% of the tokens sent repeated the request before (10 requests, 1 rewrite, 1 summary request): ' +
        'input priced at 0.22× of sending it uncached, with a cache read at a tenth of the price',
    );
  });

  it("shows a session's own requests in the status report and on the dashboard", async () => {
    const { session, clock } = sessionRig();
    await session.add([user('Build every module.')]);
    for (let i = 1; i <= 3; i++) {
      await session.add([
        call(`c${i}`, 'run_in_terminal', { command: `npm run step-${i}` }),
        result(`c${i}`, `step ${i} passed\n${filler(300)}`, false, 'run_in_terminal'),
        assistant(`Step ${i} is done.`),
      ]);
      const prepared = await session.prepare(BUDGET);
      await session.recordSent(prepared.messages);
    }
    const report = renderStatusReport(
      contextStatus({
        state: session.state,
        tokens: 1_000,
        budget: BUDGET,
        estimated: false,
        thresholds: DEFAULT_OPTIONS.thresholds,
        warnings: [],
        now: clock.now(),
      }),
    );
    // Three requests, each the one before plus a round: the second and third reuse all of the one before.
    assert.match(report, /- \*\*Prompt cache:\*\* \d+% of the tokens sent repeated the request before \(3 requests, 0 rewrites\)/);
    const reuse = Number(/Prompt cache:\*\* (\d+)%/.exec(report)?.[1]);
    assert.ok(reuse >= 40 && reuse < 100, `${reuse}%`);
    const model = await session.dashboard({ budget: BUDGET, reserveTokens: 0 });
    assert.match(model.promptCache ?? '', /^\d+% of the tokens sent repeated the request before \(3 requests, 0 rewrites\)/);
  });
});
