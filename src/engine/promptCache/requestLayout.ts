/**
 * A request's layout, drawn where its cache breakpoints are placed. Providers cache a request by its exact prefix
 * (Anthropic, OpenAI and Gemini alike), so the order of its layers, and what may change each, is design:
 *
 *   ┌─ the host's system prompt and tool definitions   the caller's (or @ctx's own): the same in every request
 *   ├─ ctx's context message                             the ledger, the checkpoints, the earlier lines, what the
 *   │                                                    drift check put back: frozen as sent until a rebase
 *   │                                                    (`model/frozenContext.ts`)                          ◆
 *   ├─ the live messages                                 only appended to until a rebase
 *   └─ the round's latest message                        the new user message, tool result or recovery round  ◆
 *
 *   ◆ a cache breakpoint (`cacheBreakpoints.ts`): the second one makes each request of a stretch read the one
 *     before it; the first keeps the context message cached when the live messages change.
 *
 * Between two rebases each request is the one before plus what is new, byte for byte: what the tools teach the
 * ledger waits in the live messages (which hold it already) until the next rebase, and the earlier lines are the
 * ones chosen at the last one. A **rebase** is the one accepted miss: a step that rewrites what was already sent (a
 * checkpoint with everything batched into it, a model's summary replacing its stand-in, an edit the user makes to
 * what the context holds, a new budget). It is counted with the tokens it makes the cache read anew
 * (`sentPrefix.ts`), and `session/requestPreparation.ts` runs it only at the trigger, or when it pays for itself.
 */
import { CONTEXT_MESSAGE_ID } from '../model/frozenContext';
import type { Message } from '../types';
import { placeBreakpoints, type BreakpointSite } from './cacheBreakpoints';

/**
 * For each message of a request, whether it ends with a cache breakpoint: after ctx's context message, on the latest
 * message, and where the caller marked its own (`callerMarked`) as far as the limit allows.
 */
export function breakpointsOf<M>(
  messages: readonly M[],
  engineMessage: (m: M) => Message | undefined,
  callerMarked: (m: M) => boolean,
): boolean[] {
  const sites: BreakpointSite[] = messages.map((m) => ({
    stableEnd: engineMessage(m)?.id === CONTEXT_MESSAGE_ID,
    callerMarked: callerMarked(m),
  }));
  return placeBreakpoints(sites);
}
