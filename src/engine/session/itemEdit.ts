/** What an edit of one context item (pin, drop, offload now, undo) produced, in the shape of a step, and what to tell the user. */
import type { StepResult } from '../model/stepResult';

export interface ItemEdit extends StepResult {
  /** Why nothing was changed, in plain words; absent when the edit applies. */
  readonly problem?: string;
  /** What was done, in plain words. */
  readonly done?: string;
}

/** The outcome the host shows: whether the edit applied, and the words for it. */
export interface EditOutcome {
  readonly ok: boolean;
  readonly message: string;
}

/** An edit that changes nothing and says why. */
export function refused(problem: string): ItemEdit {
  return { problem };
}
