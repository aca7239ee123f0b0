/**
 * Facts read from the calls themselves: the files a call created, edited, deleted or read (see `fileFacts`) or a
 * command wrote from a here-document, the items of a plan the agent wrote with its plan or to-do tool, the plan a
 * call states in its own words (a task's description) when the tool is neither a shell nor a file operation, and what
 * a file operation says it is for, where its tool asks (Gemini CLI's `instruction`, Copilot's `explanation`).
 */
import { candidate, type Candidate } from './candidate';
import { fileFacts, shellWriteFacts } from './fileFacts';
import type { LaterEdits } from './laterEdits';
import { planItems } from './planItems';
import type { ToolStep } from './toolSteps';
import { splitSentences } from '../text/prose';
import { CONTENT_KEYS, PATH_KEYS } from '../toolInputKeys';
import { EDIT_TEXT_KEYS } from './editChange';

/** Scores of what a call's input states. */
export const CALL_SCORES = {
  /** An item of a plan the agent wrote down: a step it decided to take. */
  planItem: 0.5,
  /** A sentence in any other tool's input (a task's description), or what a file operation says it is for. */
  plan: 0.4,
} as const;

/** Input strings between these lengths, on one line with a space, read as prose. */
const PLAN_CHARS = { min: 12, max: 200 } as const;
/** Prose: words and sentence punctuation only; code (`x = f(y)`, `{…}`, `a; b`) has other characters. */
const PROSE = /^[\p{L}\p{N}\s,.'’"“”:!?/()-]+$/u;
/** Prose has words of letters: at least this many. @default 3 */
const MIN_PLAN_WORDS = 3;
/** Most plan facts from one call's prose. @default 3 */
export const MAX_PLANS_PER_CALL = 3;
/** Most items read from one plan. @default 12 — a long to-do list; the rest come back in the next update of the list. */
export const MAX_PLAN_ITEMS_PER_CALL = 12;

/** The facts of a successful step's call: its files (see `fileFacts` for `later`), or the plan items or plans it states. */
export function callFacts(step: ToolStep, later?: LaterEdits): Candidate[] {
  if (step.activity.kind === 'file') return [...fileFacts(step, later), ...statedPurpose(step)];
  if (step.activity.kind === 'command') return shellWriteFacts(step);
  if (step.activity.kind !== 'other' || step.call === undefined) return [];
  const where = { messageId: step.messageId, seq: step.seq };
  const items = planItems(step.call.input);
  if (items.length > 0) {
    return items.slice(0, MAX_PLAN_ITEMS_PER_CALL).flatMap((item) => candidate('decision', item, where, CALL_SCORES.planItem) ?? []);
  }
  const plans: Candidate[] = [];
  for (const value of proseValues(step.call.input)) {
    if (plans.length >= MAX_PLANS_PER_CALL) break;
    const fact = candidate('decision', value, where, CALL_SCORES.plan);
    if (fact) plans.push(fact);
  }
  return plans;
}

/**
 * What a failed file operation's or command's input says it was for (see {@link statedPurpose}): the call failed, but
 * the agent decided it, often as its answer to what failed before (`Run the tests through python -m to avoid the
 * permission error`). A successful command's is left: the tool record shows the command, and what it came to says more.
 */
export function failedCallPurpose(step: ToolStep): Candidate[] {
  if (step.activity.kind === 'file') return statedPurpose(step);
  return step.activity.kind === 'command' ? statedPurpose(step, step.activity.commands) : [];
}

/**
 * The first sentence of what a file operation's input says it is for ("Clear the draft flag once the order is paid.
 * This keeps…"): a value of its own beside the file's path and the text the operation writes, which are the file's.
 */
function statedPurpose(step: ToolStep, commands: readonly string[] = []): Candidate[] {
  if (step.call === undefined) return [];
  for (const [key, value] of Object.entries(step.call.input)) {
    if (typeof value !== 'string' || PATH_KEYS.includes(key) || CONTENT_KEYS.includes(key) || EDIT_TEXT_KEYS.has(key)) continue;
    if (commands.includes(value.trim())) continue;
    const first = splitSentences(value.trim().split('\n')[0])[0];
    const purpose = proseText(first);
    const fact =
      purpose === undefined ? undefined : candidate('decision', purpose, { messageId: step.messageId, seq: step.seq }, CALL_SCORES.plan);
    if (fact) return [fact];
  }
  return [];
}

/** A value that reads like a sentence, trimmed: words, no code, on one line, a modest length; else undefined. */
function proseText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.length < PLAN_CHARS.min || text.length > PLAN_CHARS.max || !PROSE.test(text)) return undefined;
  // Words apart: a path or a name (`.github/copilot-instructions.md`) has letters enough but says nothing of a plan.
  return (text.match(/\p{L}{2,}(?=\s|[,.:!?]*$|[,.:!?]\s)/gu)?.length ?? 0) >= MIN_PLAN_WORDS ? text : undefined;
}

/** String values (one level into arrays and objects) that read like a sentence: words, no code, on one line, a modest length. */
function proseValues(input: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  const take = (value: unknown) => {
    const text = proseText(value);
    if (text !== undefined) out.push(text);
  };
  for (const value of Object.values(input)) {
    if (Array.isArray(value)) {
      value.forEach((item) => (typeof item === 'object' && item !== null ? Object.values(item).forEach(take) : take(item)));
    } else if (typeof value === 'object' && value !== null) Object.values(value).forEach(take);
    else take(value);
  }
  return out;
}
