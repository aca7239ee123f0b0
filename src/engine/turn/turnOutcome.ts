/** How a turn ended (see `runTurn.ts`). */
import type { ContextSession } from '../session/contextSession';
import type { PreparedContext } from '../model/preparedContext';

/** The steps of a turn, in order; a cancelled turn says at which one it stopped. */
export type TurnStage = 'add' | 'prepare' | 'send' | 'tools';

/** How a turn ended. Cancellation and a model's failure are outcomes, never thrown. */
export type TurnEnd =
  /** The model answered without a call the turn runs (or with a call it forwarded). */
  | { readonly kind: 'answered' }
  /** The signal came; `stage` is the step that did not run or was cut short. */
  | { readonly kind: 'cancelled'; readonly stage: TurnStage }
  /** The model failed (what it said before is kept). */
  | { readonly kind: 'failed'; readonly error: unknown }
  /** The model still called tools after the most rounds a turn may have. */
  | { readonly kind: 'roundLimit' };

export interface TurnOutcome {
  readonly session: ContextSession;
  readonly end: TurnEnd;
  /** Requests sent to the model. */
  readonly rounds: number;
  /** Tool calls the turn ran. */
  readonly toolCalls: number;
  /** The context of the last request (the last one sent, when there is a model). */
  readonly prepared?: PreparedContext;
}
