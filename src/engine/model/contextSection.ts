/** The sections of ctx's context message and of the ledger inside it: what the context's composition is made of. */

/** The parts of the rendered ledger, each a section of its own (what the context's composition is made of). */
export type LedgerPart =
  | 'ledgerHeading'
  | 'instructions'
  | 'intent'
  | 'goals'
  | 'decisions'
  | 'progress'
  | 'nextStep'
  | 'artifacts'
  | 'pinned'
  | 'facts'
  | 'toolRecord'
  | 'userMessages';

/** One section of the rendered ledger and the part it is. */
export interface LedgerSection {
  readonly part: LedgerPart;
  readonly text: string;
}

/** What a section of the context message is: a part of the ledger, the heading, a checkpoint or what the drift check put back. */
export type ContextPart = LedgerPart | 'contextHeading' | 'checkpoint' | 'earlier' | 'putBack';

/** One section of the context message, with the part it is (and the checkpoint, for a checkpoint's section). */
export interface ContextSection {
  readonly part: ContextPart;
  readonly text: string;
  readonly checkpointId?: string;
}
