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
  /** The budget it was fitted to: another budget renders it anew. */
  readonly budget: number;
  /** Whether what must never be summarized was over its share when it was rendered. */
  readonly ledgerOverflow: boolean;
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
