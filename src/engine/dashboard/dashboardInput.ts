/** What the dashboard's read models are built from: the state, the request view of it, and how many tokens each block took. */
import type { EngineOptions } from '../options';
import type { RequestView } from '../model/requestView';
import type { SessionState } from '../model/sessionState';
import type { Block } from '../types';

export interface DashboardInput {
  readonly state: SessionState;
  /** The view of `state` at `budget`: what the next request would send, measured. */
  readonly view: RequestView;
  /** A block's tokens as the view's measurement counted them, without framing. */
  blockTokens(block: Block): number;
  readonly budget: number;
  /** Tokens kept for the model's answer, beside the budget: reserved, not used. */
  readonly reserveTokens: number;
  /** The options as they apply to `budget`. */
  readonly options: EngineOptions;
  readonly now: number;
}
