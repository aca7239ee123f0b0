/**
 * What a session's requests met in a provider's prompt cache, in one line for the status report and the replay
 * summary: the share of the tokens sent that repeated the request before (what the cache reads at a tenth of the
 * price), how often something already sent was rewritten, and the input priced against sending all of it uncached.
 */
import { reuseShare, type CacheTally } from '../model/cacheTally';
import { totalPricedInput } from '../promptCache/cachePricing';
import { formatCount } from '../text/numbers';

/**
 * "92% of the tokens sent repeated the request before (41 requests, 2 rewrites, 3 summary requests): input priced at
 * 0.21× of sending it uncached, …", or undefined before any request.
 */
export function describePromptCache(tally: CacheTally | undefined): string | undefined {
  if (!tally || tally.requests === 0) return undefined;
  const sent = tally.sentTokens + tally.summaryInputTokens;
  const priced = sent > 0 ? totalPricedInput(tally) / sent : 0;
  const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
  const counts = [
    plural(tally.requests, 'request', 'requests'),
    plural(tally.rebases, 'rewrite', 'rewrites'),
    ...(tally.summaryRequests > 0 ? [plural(tally.summaryRequests, 'summary request', 'summary requests')] : []),
  ].join(', ');
  return (
    `${Math.round(reuseShare(tally) * 100)}% of the tokens sent repeated the request before (${counts}): ` +
    `input priced at ${priced.toFixed(2)}× of sending it uncached, with a cache read at a tenth of the price`
  );
}
