/** The shapes the recovery search takes in and gives back. */

/** Where a searchable passage comes from. Checkpoints are added by their owner through `addDocuments`. */
export type RecoverySource = 'offloaded' | 'archive' | 'checkpoint';

/** A line range of an offloaded file. */
export interface RecoveryLocation {
  /** Store path of the file. */
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** One search result, ranked best first. */
export interface RecoveryHit {
  readonly source: RecoverySource;
  /**
   * What to go back to: `<store path>#L10-L50` for offloaded content, `archive#<messageId>` for a
   * message, the caller's own ref for added documents.
   */
  readonly ref: string;
  readonly sessionId?: string;
  /** For offloaded content: the passage's line range, to read with `readOffloaded`. */
  readonly location?: RecoveryLocation;
  /** For offloaded content: the line of the best match inside `location`. */
  readonly matchLine?: number;
  readonly messageId?: string;
  readonly role?: string;
  readonly toolName?: string;
  readonly score: number;
  /** About 300 characters around the best match, whitespace collapsed, '…' where cut. */
  readonly excerpt: string;
}

export interface RecoverySearchOptions {
  /** How many hits to return at most. @default 10 */
  readonly top?: number;
  /** Only these sources. @default all */
  readonly sources?: readonly RecoverySource[];
  /**
   * Whole terms only, without the prefix and typo matching that a person's query needs: for
   * verbatim text (the recall check's facts), where it finds the same passages far faster in a
   * large index. @default false
   */
  readonly exactTerms?: boolean;
}

/** A document added from outside the stored session (a checkpoint summary, for instance). */
export interface RecoveryDocumentInput {
  /** Shown as the hit's ref; adding the same ref again for the same source replaces the document. */
  readonly ref: string;
  readonly text: string;
  readonly sessionId?: string;
  readonly messageId?: string;
  readonly role?: string;
  readonly toolName?: string;
}

/** Something the index left out, in plain words (a capped file, unreadable archive lines). */
export interface RecoveryNote {
  /** What the note is about: a store path, or `archive` of a session. */
  readonly ref: string;
  readonly message: string;
}
