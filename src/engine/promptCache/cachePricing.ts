/**
 * Input priced as a provider with a prompt cache bills it, in units of the base input price. The figures are
 * Anthropic's (a cache read costs a tenth of the base price, a cache write a quarter more); OpenAI and Gemini read a
 * cached prefix at a quarter to a tenth and charge nothing extra for the write, so these prices are the stricter
 * test of a context that rewrites what it sent.
 */
import type { CacheTally, RequestReuse } from '../model/cacheTally';

/** A token read from the prompt cache. @default 0.1 */
export const CACHE_READ_PRICE = 0.1;
/** A token sent anew and written to the cache for the next request. @default 1.25 */
export const CACHE_WRITE_PRICE = 1.25;

/** Requests' input in units of the base price: the reused prefix read from the cache, the rest written to it. */
export function pricedInput(reuse: Pick<RequestReuse, 'sentTokens' | 'reusedTokens'>): number {
  return reuse.reusedTokens * CACHE_READ_PRICE + (reuse.sentTokens - reuse.reusedTokens) * CACHE_WRITE_PRICE;
}

/**
 * Everything a session's input cost, in units of the base price: the conversation's requests and the summaries'. A
 * summary request asked as the conversation's next request reads what the conversation sent from the cache; the rest
 * of it, and all of a summary request sent on its own, is priced as written, as the conversation's own new messages are.
 */
export function totalPricedInput(tally: CacheTally): number {
  return pricedInput(tally) + pricedInput({ sentTokens: tally.summaryInputTokens, reusedTokens: tally.summaryReusedTokens ?? 0 });
}
