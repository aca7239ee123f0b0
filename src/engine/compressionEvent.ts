/** One thing a tier did, for the status report's compression history and the session log. */

export type Tier = 'offload' | 'truncate' | 'watermark';

export interface CompressionEvent {
  readonly at: number;
  readonly tier: Tier;
  readonly savedTokens: number;
  /** Plain words, e.g. "Offloaded read_file result (18,204 tokens) to 2026…_read_file_c1.txt". */
  readonly detail: string;
  /** Store path of the file the event wrote, if any (an offloaded result). */
  readonly file?: string;
}

export const TIER_LABELS: Readonly<Record<Tier, string>> = {
  offload: 'Tier 1 · offload',
  truncate: 'Tier 2 · truncate inputs',
  watermark: 'Watermark',
};
