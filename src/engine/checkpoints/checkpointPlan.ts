/**
 * Which messages a new checkpoint takes (Tier 3): the oldest part of the active context, up to a
 * boundary that never separates a tool call from its result, keeping the latest messages intact
 * (the last few messages and a token amount; design §4.1) and taking enough that usage falls
 * to the target and compression does not fire again at once.
 */
import type { Message } from '../types';

export interface CheckpointPlanInputs {
  readonly active: readonly Message[];
  /** Tokens of each active message, same order. */
  readonly messageTokens: readonly number[];
  /** Tokens of everything else the request holds (ledger, checkpoints after aging, framing). */
  readonly fixedTokens: number;
  /** Tokens the new checkpoint's summary is expected to take. */
  readonly checkpointTokens: number;
  /** The request's budget. */
  readonly budget: number;
  /** Usage share to bring the request down to, e.g. 0.5. */
  readonly targetUsage: number;
  /** Tokens the kept messages will still grow by before the plan is applied (planning ahead at ORANGE). */
  readonly expectedGrowth?: number;
  /** The latest messages never summarized. */
  readonly keepMessages: number;
  /** At least this many tokens of the latest messages are kept. */
  readonly keepTokens: number;
}

export interface CheckpointPlan {
  /** Ids of the active messages the checkpoint replaces: a prefix of the active context. */
  readonly messageIds: readonly string[];
  /** Tokens of those messages. */
  readonly tokens: number;
  /** Whether the target usage is expected to be reached. */
  readonly reachesTarget: boolean;
}

/**
 * Positions where the context can be cut: before message `i`, no tool call earlier than `i` has its
 * result at `i` or later.
 */
export function safeBoundaries(active: readonly Message[]): boolean[] {
  const resultAt = new Map<string, number>();
  active.forEach((m, i) => m.blocks.forEach((b) => b.type === 'toolResult' && resultAt.set(b.callId, i)));
  const safe = new Array<boolean>(active.length + 1).fill(true);
  // A call at i whose result is at j > i makes every cut in (i, j] unsafe.
  let openUntil = -1;
  for (let i = 0; i < active.length; i++) {
    if (i > 0 && i <= openUntil) safe[i] = false;
    for (const b of active[i].blocks) if (b.type === 'toolCall') openUntil = Math.max(openUntil, resultAt.get(b.id) ?? -1);
  }
  if (active.length <= openUntil) safe[active.length] = false;
  return safe;
}

/** The plan, or undefined when nothing can be summarized without touching the kept messages. */
export function planCheckpoint(i: CheckpointPlanInputs): CheckpointPlan | undefined {
  const n = i.active.length;
  // The largest cut allowed: the kept tail has at least keepMessages messages and keepTokens tokens.
  let maxCut = Math.max(0, n - i.keepMessages);
  let tail = 0;
  for (let k = n - 1; k >= 0 && k >= maxCut; k--) tail += i.messageTokens[k];
  while (maxCut > 0 && tail < i.keepTokens) tail += i.messageTokens[--maxCut];
  const safe = safeBoundaries(i.active);
  while (maxCut > 0 && !safe[maxCut]) maxCut--;
  if (maxCut === 0) return undefined;

  const allowance = i.budget * i.targetUsage - i.fixedTokens - i.checkpointTokens - (i.expectedGrowth ?? 0);
  const suffix = new Array<number>(n + 1).fill(0);
  for (let k = n - 1; k >= 0; k--) suffix[k] = suffix[k + 1] + i.messageTokens[k];
  // The smallest safe cut whose kept part fits the allowance keeps the most of the conversation.
  let cut = maxCut;
  for (let k = 1; k <= maxCut; k++) {
    if (safe[k] && suffix[k] <= allowance) {
      cut = k;
      break;
    }
  }
  return {
    messageIds: i.active.slice(0, cut).map((m) => m.id),
    tokens: suffix[0] - suffix[cut],
    reachesTarget: suffix[cut] <= allowance,
  };
}
