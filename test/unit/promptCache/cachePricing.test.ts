import * as assert from 'node:assert/strict';
import { EMPTY_CACHE_TALLY, reuseShare, withRequest, withSummaryRequest } from '../../../src/engine/model/cacheTally';
import { pricedInput, totalPricedInput } from '../../../src/engine/promptCache/cachePricing';

describe('input priced with a prompt cache', () => {
  it('prices a reused prefix at a tenth and the rest, written to the cache, at a quarter more', () => {
    assert.equal(pricedInput({ sentTokens: 1_000, reusedTokens: 900 }), 900 * 0.1 + 100 * 1.25);
    assert.equal(pricedInput({ sentTokens: 1_000, reusedTokens: 0 }), 1_250, 'a rebase pays for the whole request');
  });

  it('adds up a session: its requests, its rebases and its summary requests, which nothing repeats', () => {
    let tally = withRequest(EMPTY_CACHE_TALLY, { sentTokens: 1_000, reusedTokens: 0, invalidatedTokens: 0 });
    tally = withRequest(tally, { sentTokens: 1_100, reusedTokens: 1_000, invalidatedTokens: 0 });
    tally = withRequest(tally, { sentTokens: 600, reusedTokens: 0, invalidatedTokens: 1_100 });
    tally = withSummaryRequest(tally, 2_000);
    assert.equal(tally.requests, 3);
    assert.equal(tally.rebases, 1, 'only the request that rewrote what was sent');
    assert.equal(reuseShare(tally), 1_000 / 2_700);
    assert.equal(totalPricedInput(tally), 1_250 + (100 + 125) + 750 + 2_000);
  });
});
