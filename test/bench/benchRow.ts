/** One measured figure in the benchmark report, with the goal it is held to. */
export interface BenchRow {
  readonly group: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The same figure for what we compare against (bare js-tiktoken, a full recount…). */
  readonly baseline?: number;
  /** How many times better than the baseline. */
  readonly ratio?: number;
  readonly goal?: string;
  readonly met?: boolean;
  readonly note?: string;
}

/** The middle value (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
