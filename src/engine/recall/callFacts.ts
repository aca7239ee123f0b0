/**
 * Facts read from the calls themselves: the files a call created, edited, deleted or read, and the
 * plan a call states in its own words (a task's description, a to-do item) when the tool is
 * neither a shell nor a file operation.
 */
import type { FileAction } from '../ledger/ledgerTypes';
import { keyedCandidate, candidate, type Candidate } from './candidate';
import type { ToolStep } from './toolSteps';

/** Scores of files by what was done to them, and of a plan stated in a call's input. */
export const CALL_SCORES: Readonly<Record<FileAction, number>> & { readonly plan: number } = {
  created: 0.7,
  edited: 0.65,
  deleted: 0.6,
  read: 0.3,
  plan: 0.4,
};

/** Input strings between these lengths, on one line with a space, read as prose. */
const PLAN_CHARS = { min: 12, max: 200 } as const;
/** Prose: words and sentence punctuation only; code (`x = f(y)`, `{…}`, `a; b`) has other characters. */
const PROSE = /^[\p{L}\p{N}\s,.'’"“”:!?/()-]+$/u;
/** Prose has words of letters: at least this many. @default 3 */
const MIN_PLAN_WORDS = 3;
/** Most plan facts from one call. @default 3 */
export const MAX_PLANS_PER_CALL = 3;

/** The artifacts of a successful file step, or the plans a successful other call states. */
export function callFacts(step: ToolStep): Candidate[] {
  const where = { messageId: step.messageId, seq: step.seq };
  const activity = step.activity;
  if (activity.kind === 'file') {
    return activity.paths.flatMap((path) => {
      const fact = keyedCandidate('artifact', path, `${path} (${activity.action})`, where, CALL_SCORES[activity.action]);
      return fact ? [fact] : [];
    });
  }
  if (activity.kind !== 'other' || step.call === undefined) return [];
  const plans: Candidate[] = [];
  for (const value of proseValues(step.call.input)) {
    if (plans.length >= MAX_PLANS_PER_CALL) break;
    const fact = candidate('decision', value, where, CALL_SCORES.plan);
    if (fact) plans.push(fact);
  }
  return plans;
}

/** String values (one level into arrays and objects) that read like a sentence: words, no code, on one line, a modest length. */
function proseValues(input: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  const take = (value: unknown) => {
    if (typeof value !== 'string') return;
    const text = value.trim();
    if (text.length < PLAN_CHARS.min || text.length > PLAN_CHARS.max || !PROSE.test(text)) return;
    if ((text.match(/\p{L}{2,}/gu)?.length ?? 0) >= MIN_PLAN_WORDS) out.push(text);
  };
  for (const value of Object.values(input)) {
    if (Array.isArray(value)) {
      value.forEach((item) => (typeof item === 'object' && item !== null ? Object.values(item).forEach(take) : take(item)));
    } else if (typeof value === 'object' && value !== null) Object.values(value).forEach(take);
    else take(value);
  }
  return out;
}
