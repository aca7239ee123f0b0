/** What one step of a preparation produced, as every step returns it. */
import type { CompressionEvent } from './compressionEvent';
import type { SessionState } from './sessionState';

/** What one step produced: a patch to the state (none when nothing changed) and what it did. */
export interface StepResult {
  readonly patch?: Partial<SessionState>;
  readonly events?: readonly CompressionEvent[];
  /** What the user must be told. */
  readonly warnings?: readonly string[];
}

/** A step that changed nothing. */
export const NOTHING: StepResult = {};
