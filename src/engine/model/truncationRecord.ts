/** A tool call's input that gave up its copy of a file's content, as the session state records it (tier 2 is `tiers/truncateInputs`). */

/** One truncated input: the call, the file it wrote and the tokens it gave back. */
export interface TruncationRecord {
  readonly messageId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly path: string;
  readonly tokens: number;
  readonly savedTokens: number;
  readonly at: number;
}
