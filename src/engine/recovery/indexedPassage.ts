/** A passage as the recovery index keeps it: its text, its line range and where it came from. */
import type { RecoverySource } from '../model/recoveryTypes';

export interface IndexedPassage {
  /** Passage id in the term index. */
  readonly id: number;
  /** The document the passage belongs to; its passages are replaced or forgotten together. */
  readonly documentKey: string;
  readonly source: RecoverySource;
  /** The document's ref: a store path for offloaded files, `archive#<id>`, or the caller's ref. */
  readonly ref: string;
  readonly text: string;
  /** Line range inside the document, 1-based and inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** Store path, for offloaded files. */
  readonly file?: string;
  readonly sessionId?: string;
  readonly messageId?: string;
  readonly role?: string;
  readonly toolName?: string;
}

/** The fields a passage shares with the other passages of its document. */
export type PassageDocument = Omit<IndexedPassage, 'id' | 'text' | 'startLine' | 'endLine'>;
