/**
 * Where a request's cache breakpoints go. A provider that caches by explicit breakpoints (Anthropic: at most four a
 * request) writes the prefix up to each one and reads it back in a later request that starts the same; one at the
 * end of what stays put between rebases, and one on the latest message, make every request of a stretch read the one
 * before it (see `requestLayout.ts`). A caller's own breakpoints (Copilot marks its instructions and each round's
 * latest tool result) are kept where their messages are sent as the caller sent them, latest first, as long as the
 * four allow; the others are left out, since one over the limit makes the provider refuse the request.
 */

/** The most cache breakpoints a request may carry (Anthropic's limit). @default 4 */
export const MAX_CACHE_BREAKPOINTS = 4;

/** What a message of the request says about where a breakpoint may go. */
export interface BreakpointSite {
  /** The message that ends what stays put between rebases: ctx's context message. */
  readonly stableEnd: boolean;
  /** The caller put a breakpoint of its own in this message, and it is sent as the caller sent it. */
  readonly callerMarked: boolean;
}

/** For each message of a request, in order, whether it ends with a cache breakpoint. */
export function placeBreakpoints(sites: readonly BreakpointSite[]): boolean[] {
  const marked = sites.map(() => false);
  if (sites.length === 0) return marked;
  let left = MAX_CACHE_BREAKPOINTS;
  const mark = (i: number) => {
    if (i < 0 || marked[i] || left === 0) return;
    marked[i] = true;
    left--;
  };
  mark(sites.length - 1);
  mark(sites.findIndex((s) => s.stableEnd));
  for (let i = sites.length - 1; i >= 0; i--) if (sites[i].callerMarked) mark(i);
  return marked;
}
