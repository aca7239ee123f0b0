/** What the host of a turn gives Tier 3: the model that may summarize, cancellation, a focus, progress. */
import type { Cancellation } from '../cancellation';
import type { Summarizer } from '../summary/summarizer';

/** What the host of a turn can give the engine for Tier 3. */
export interface TurnOptions {
  /** The language model summarizer; the deterministic one is used without it or when it fails. */
  readonly summarizer?: Summarizer;
  /** Cancels an explicit compression. */
  readonly cancellation?: Cancellation;
  /** What an explicit compression should focus on (`/compress <focus>`). */
  readonly focus?: string;
  /** Reports progress of long work in plain words. */
  readonly progress?: (message: string) => void;
}
