/**
 * ctx's context message as it was last sent, kept unchanged until the next rebase (see
 * `promptCache/requestLayout.ts`): requests between two rebases start with the same bytes, so a provider's
 * prompt cache reads them. A state change that rewrites what was already sent (messages leaving or changing,
 * a checkpoint, what the drift check put back) clears it, and the next request renders it anew.
 */
import type { ContextSection } from './contextSection';
import { isRecord } from '../schema';
import { isAmount } from './stateNumbers';
import type { SessionState } from './sessionState';

/** The id of the context message; it is never archived, since it is ctx's own and rendered at each rebase. */
export const CONTEXT_MESSAGE_ID = 'ctx-context';

export interface FrozenContext {
  /** The context message's sections as sent. */
  readonly sections: readonly ContextSection[];
  /** The budget it was fitted to: a budget far from it renders it anew (see {@link frozenFor}). */
  readonly budget: number;
  /** Whether what must never be summarized was over its share when it was rendered. */
  readonly ledgerOverflow: boolean;
}

/**
 * How far the budget may move from the one the context message was fitted to, as a share of that budget, while the
 * message is still sent unchanged. A caller's budget moves a little from request to request (its own prompt for a
 * summary, the tools it offers), and fitting the ledger and the earlier lines to each move would rewrite the whole
 * request; a message that no longer fits is handled as any request over its budget is (the earlier lines leave
 * first). Another model's window moves it further, and the message is fitted anew.
 * @default 0.1
 */
export const FROZEN_BUDGET_TOLERANCE = 0.1;

/** The frozen context when it still applies to `budget` (see {@link FROZEN_BUDGET_TOLERANCE}). */
export function frozenFor(frozen: FrozenContext | undefined, budget: number): FrozenContext | undefined {
  return frozen !== undefined && Math.abs(budget - frozen.budget) <= FROZEN_BUDGET_TOLERANCE * frozen.budget ? frozen : undefined;
}

/** The state fields whose change rewrites what the context message or the live messages already said. */
const SENT_FIELDS = ['checkpoints', 'putBack', 'parentSessionId'] as const satisfies readonly (keyof SessionState)[];

/**
 * True when going from `before` to `after` rewrites something already sent: a live message left, moved or changed
 * (appending is not a rewrite), or a part of the context message the state holds changed.
 */
export function rewritesSent(before: SessionState, after: SessionState): boolean {
  if (SENT_FIELDS.some((field) => before[field] !== after[field])) return true;
  const was = before.active;
  const now = after.active;
  if (was === now) return false;
  if (now.length < was.length) return true;
  for (let i = 0; i < was.length; i++) if (was[i] !== now[i]) return true;
  return false;
}

const isSection = (v: unknown): v is ContextSection =>
  isRecord(v) &&
  typeof v.part === 'string' &&
  typeof v.text === 'string' &&
  (v.checkpointId === undefined || typeof v.checkpointId === 'string');

/** True for a frozen context read back from storage. */
export function isFrozenContext(v: unknown): v is FrozenContext {
  return (
    isRecord(v) &&
    Array.isArray(v.sections) &&
    v.sections.every(isSection) &&
    isAmount(v.budget) &&
    v.budget > 0 &&
    typeof v.ledgerOverflow === 'boolean'
  );
}
