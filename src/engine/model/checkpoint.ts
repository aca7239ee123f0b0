/**
 * A checkpoint (design §4): a summary of a range of the archive that stands in for those messages
 * in the active context. Checkpoints age: each new one re-compresses the older ones one step,
 * always from the archived originals of their range.
 */
import type { RecallFigures } from './recallFigures';

/** Age steps: 0 recent (~1200 tokens), 1 old (~600), 2 ancient (~300), 3 merged (~150). */
export type CheckpointAge = 0 | 1 | 2 | 3;

export interface Checkpoint {
  readonly id: string;
  readonly age: CheckpointAge;
  /** Shown to people, e.g. "Messages 1–50". */
  readonly range: string;
  /** Ids of the archived messages it covers, in archive order. */
  readonly messageIds: readonly string[];
  /** The summary (Markdown). */
  readonly summary: string;
  /** Who wrote the summary: "deterministic" or the model's name. */
  readonly summarizedBy: string;
  readonly createdAt: number;
  /** When it was last re-compressed by aging. */
  readonly compressedAt?: number;
  /** Tokens of the covered messages as they were in the context. */
  readonly originalTokens: number;
  /** Tokens of the summary now. */
  readonly currentTokens: number;
  /** How many times it was compressed (1 when created). */
  readonly compressionCount: number;
  /** Sequence number of the Tier 3 run that created it (1, 2, 3…). */
  readonly compressionNumber: number;
  readonly keyDecisions: readonly string[];
  readonly filesModified: readonly string[];
  readonly nextSteps: readonly string[];
  /** What the recall check found after this checkpoint's summary was last written (absent until one ran). */
  readonly recall?: RecallFigures;
}
