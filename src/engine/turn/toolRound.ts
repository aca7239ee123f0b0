/**
 * The calls of one round that the turn runs itself, run in order. A call not yet run when the
 * signal comes is not run: its result says so, so every call keeps a result. Results that stay in
 * the request only (a ctx model's lookups) are cut to the room left in the budget; results that
 * join the session go through its tiers like any tool result.
 */
import type { Cancellation } from '../cancellation';
import { errorMessage } from '../errors';
import type { ContextSession } from '../session/contextSession';
import { estimateTokens } from '../tokens/estimate';
import { toolResultBlock, type ToolCallBlock, type ToolResultBlock } from '../types';
import type { TurnModel } from './turnPorts';

/** A result kept in the request only keeps at least this many characters, even when the window is nearly full. */
export const MIN_REQUEST_RESULT_CHARS = 2_000;
/** Characters per token assumed when a result is cut to the room left: fewer than usual, to stay on the safe side. */
const CHARS_PER_TOKEN_WHEN_CUTTING = 3;

/** What a call that the signal stopped says. */
export const NOT_RUN_RESULT = 'Not run: the turn was stopped before this tool ran.';

export interface ToolRound {
  readonly results: readonly ToolResultBlock[];
  /** Calls that ran. */
  readonly ran: number;
  /** Tokens left in the budget for results kept in the request, after these. */
  readonly room: number;
}

export async function runToolRound<Part>(
  model: TurnModel<Part>,
  session: ContextSession,
  calls: readonly ToolCallBlock[],
  room: number,
  cancellation: Cancellation,
): Promise<ToolRound> {
  const results: ToolResultBlock[] = [];
  let ran = 0;
  for (const call of calls) {
    if (cancellation.isCancellationRequested) {
      results.push(toolResultBlock(call.id, NOT_RUN_RESULT, true, call.name));
      continue;
    }
    const { content, isError } = await model.runTool(session, call).catch((e: unknown) => ({
      content: `${call.name} failed: ${errorMessage(e)}`,
      isError: true,
    }));
    ran++;
    if (model.answersJoin === 'session') {
      results.push(toolResultBlock(call.id, content, isError, call.name));
      continue;
    }
    const maxChars = Math.max(MIN_REQUEST_RESULT_CHARS, room * CHARS_PER_TOKEN_WHEN_CUTTING);
    const clipped = content.length > maxChars ? `${content.slice(0, maxChars)}\n[… cut to fit the context window]` : content;
    room = Math.max(0, room - estimateTokens(clipped));
    results.push(toolResultBlock(call.id, clipped, isError, call.name));
  }
  return { results, ran, room };
}
