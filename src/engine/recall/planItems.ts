/**
 * The items of a plan an agent wrote down with its plan or to-do tool. Every major agent has one
 * (a list of to-dos, of plan steps, of tasks, each with a status, or a Markdown checklist), and
 * their items are the agent's own statement of what it decided to do. Read from the input's shape,
 * never from the tool's name, so a tool not seen before is read the same way.
 */
import { memoizeByObject } from '../memo';
import { isRecord } from '../schema';

/** Fields an item's text is kept under, the first one present wins (`content`, `step`, `title`…). */
const ITEM_TEXT_KEYS = ['content', 'step', 'title', 'description', 'text', 'task', 'subject', 'summary'];
/** Fields that tell a list of items is a plan: each item's progress. */
const ITEM_STATUS_KEYS = ['status', 'state', 'done', 'completed', 'checked'];
/** Names of a list that is a plan even when its items carry no status. */
const PLAN_LIST_NAME = /todo|plan|step|task|checklist/i;
/**
 * A checklist line: Markdown's `- [ ] Write the migration`, `* [x] Run the tests`, or a to-do list written one item a
 * line with no list marker, as Roo Code's and Kilo Code's are (`[x] Run the tests`, `[-] Fix the parser` in progress).
 */
const CHECKLIST_LINE = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?\[[ xX✓-]?\]\s+(\S.*)$/;
/** Shortest and longest item read as a plan step, in characters. */
const ITEM_CHARS = { min: 8, max: 240 } as const;
/** An item says something: at least this many words of two letters or more. @default 2 */
const MIN_ITEM_WORDS = 2;

/**
 * The plan items of a call's input, in order, each once: lists of items with a text, or checklist lines.
 * Read once per input: the call's facts and its result's both ask.
 */
export const planItems: (input: Readonly<Record<string, unknown>>) => readonly string[] = memoizeByObject(readPlanItems);

function readPlanItems(input: Readonly<Record<string, unknown>>): readonly string[] {
  const items: string[] = [];
  const seen = new Set<string>();
  const add = (text: string) => {
    const item = text.trim();
    if (!isPlanItem(item) || seen.has(item)) return;
    seen.add(item);
    items.push(item);
  };
  for (const [name, value] of Object.entries(input)) {
    if (Array.isArray(value)) {
      if (value.length > 0 && isPlanList(name, value)) for (const item of value) add(itemText(item) ?? '');
    } else if (typeof value === 'string' && value.includes('[')) {
      for (const line of value.split('\n')) {
        const match = CHECKLIST_LINE.exec(line);
        if (match) add(match[1]);
      }
    }
  }
  return items;
}

/** A list whose items have a text and a status, or strings and records under a plan-like name. */
function isPlanList(name: string, list: readonly unknown[]): boolean {
  const first = list[0];
  if (isRecord(first) && itemText(first) !== undefined && ITEM_STATUS_KEYS.some((k) => k in first)) return true;
  return PLAN_LIST_NAME.test(name) && list.some((item) => itemText(item) !== undefined);
}

function itemText(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (!isRecord(item)) return undefined;
  for (const key of ITEM_TEXT_KEYS) {
    const value = item[key];
    if (typeof value === 'string' && value.trim().length > 0) return value;
  }
  return undefined;
}

/** One line, a modest length, a few words: a step, not a pasted document or an id. */
function isPlanItem(text: string): boolean {
  if (text.length < ITEM_CHARS.min || text.length > ITEM_CHARS.max || text.includes('\n')) return false;
  return (text.match(/\p{L}{2,}/gu)?.length ?? 0) >= MIN_ITEM_WORDS;
}
