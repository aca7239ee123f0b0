/**
 * Checkpoint aging (design §4.4): each new checkpoint pushes the older ones one step further, about
 * 1200 → 600 → 300 → 150 tokens, and the checkpoints that reach the last step merge into one.
 * Every step re-summarizes the archived originals of the checkpoint's range, never the previous
 * summary, so errors do not compound.
 */
import type { Checkpoint, CheckpointAge } from '../model/checkpoint';
import { appended } from '../appendedList';
import { DEFAULT_CHECKPOINT_TOKENS } from '../options';

/** Each age's share of the new checkpoint's target: recent 100%, old 50%, ancient 25%, merged 12.5%. */
export const AGE_SHARES: Readonly<Record<CheckpointAge, number>> = { 0: 1, 1: 0.5, 2: 0.25, 3: 0.125 };

export const AGE_LABELS: Readonly<Record<CheckpointAge, string>> = { 0: 'recent', 1: 'old', 2: 'ancient', 3: 'merged' };

/** The summary target for a checkpoint of this age. */
export function targetTokensFor(age: CheckpointAge, newCheckpointTokens = DEFAULT_CHECKPOINT_TOKENS): number {
  return Math.max(60, Math.round(newCheckpointTokens * AGE_SHARES[age]));
}

/** One re-compression the aging asks for: these archived messages, summarized to this age. */
export interface AgingStep {
  /** The checkpoints this step replaces: one, or several that merge. */
  readonly replaces: readonly Checkpoint[];
  readonly age: CheckpointAge;
  readonly messageIds: readonly string[];
}

/**
 * What aging does to the existing checkpoints (oldest first) when a new one is created: every one
 * moves one age up, and all that end at the last age merge into a single checkpoint.
 */
export function planAging(checkpoints: readonly Checkpoint[]): AgingStep[] {
  const steps: AgingStep[] = [];
  const merging: Checkpoint[] = [];
  for (const checkpoint of checkpoints) {
    const age = Math.min(3, checkpoint.age + 1) as CheckpointAge;
    if (age === 3) merging.push(checkpoint);
    else steps.push({ replaces: [checkpoint], age, messageIds: checkpoint.messageIds });
  }
  if (merging.length > 0) {
    // The merged span grows at its end: the state journal writes only the ids added.
    const messageIds = merging.slice(1).reduce((ids, c) => appended(ids, c.messageIds), merging[0].messageIds);
    steps.unshift({ replaces: merging, age: 3, messageIds });
  }
  return steps;
}

/** True when a step changes nothing: one checkpoint already merged, staying merged. */
export function isNoOp(step: AgingStep): boolean {
  return step.replaces.length === 1 && step.replaces[0].age === step.age;
}

/** "Messages 12–40" from the first and last position in the archive (1-based). */
export function rangeLabel(first: number, last: number): string {
  return first === last ? `Message ${first}` : `Messages ${first}–${last}`;
}
