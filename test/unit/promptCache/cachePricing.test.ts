import * as assert from 'node:assert/strict';
import { EMPTY_CACHE_TALLY, isCacheTally, reuseShare, withRequest, withSummaryRequest } from '../../../src/engine/model/cacheTally';
import { pricedInput, totalPricedInput } from '../../../src/engine/promptCache/cachePricing';

describe('input priced with a prompt cache', () => {
  it('prices a reused prefix at a tenth and the rest, written to the cache, at a quarter more', () => {
    assert.equal(pricedInput({ sentTokens: 1_000, reusedTokens: 900 }), 900 * 0.1 + 100 * 1.25);
    assert.equal(pricedInput({ sentTokens: 1_000, reusedTokens: 0 }), 1_250, 'a rebase pays for the whole request');
  });

  it('adds up a session: its requests, its rebases and its summary requests, a summary asked in the conversation reading it from the cache', () => {
    let tally = withRequest(EMPTY_CACHE_TALLY, { sentTokens: 1_000, reusedTokens: 0, invalidatedTokens: 0 });
    tally = withRequest(tally, { sentTokens: 1_100, reusedTokens: 1_000, invalidatedTokens: 0 });
    tally = withRequest(tally, { sentTokens: 600, reusedTokens: 0, invalidatedTokens: 1_100 });
    tally = withSummaryRequest(tally, 2_000);
    tally = withSummaryRequest(tally, 1_500, 1_100);
    assert.equal(tally.requests, 3);
    assert.equal(tally.rebases, 1, 'only the request that rewrote what was sent');
    assert.equal(reuseShare(tally), 1_000 / 2_700);
    assert.equal(tally.summaryRequests, 2);
    assert.equal(tally.summaryReusedTokens, 1_100);
    assert.equal(totalPricedInput(tally), 1_250 + (100 + 125) + 750 + 2_000 * 1.25 + (1_100 * 0.1 + 400 * 1.25));
  });

  it('reads a tally kept before summary requests read the cache as one where none did', () => {
    const { summaryReusedTokens: _, ...older } = withSummaryRequest(EMPTY_CACHE_TALLY, 2_000);
    assert.equal(isCacheTally(older), true);
    assert.equal(totalPricedInput(older), 2_000 * 1.25);
    assert.equal(isCacheTally({ ...older, summaryReusedTokens: -1 }), false);
  });
});
