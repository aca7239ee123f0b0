/** A tool result that went to a file, as the session state records it (tier 1 is `tiers/offload`). */

/** What was offloaded, kept in the session state and shown in the tree. */
export interface OffloadRecord {
  readonly callId: string;
  readonly toolName: string;
  /** Store path of the full content, relative to the session folder. */
  readonly file: string;
  readonly tokens: number;
  readonly savedTokens: number;
  readonly kind: string;
  readonly isError: boolean;
  readonly at: number;
  /** True when the token figure is an estimate (tokenizer not ready, or a huge result). */
  readonly estimated: boolean;
}
