/**
 * Error messages written in the code the agent read: the string a line of code raises, throws,
 * returns as an error or logs as a warning (`raise ValueError("…")`, `throw new Error('…')`,
 * `fmt.Errorf("…")`, `logger.warning("…")`). They tell what the code refuses and are what a
 * later failure will print, so the agent may need them word for word after the file has left the
 * context. Found by the syntax languages share for raising, never by what the message says; the
 * fact is the code line, keyed on the message, with the file or command it was read from.
 */
import { candidate, type Candidate } from './candidate';
import { keyOf } from '../facts/factKey';
import type { ToolStep } from './toolSteps';
import { diffChanges } from '../ledger/diffHunks';

/**
 * Score of a message raised in code: below the agent's own words and every error a tool printed,
 * above the lines a tool printed, so they are kept where room allows and leave the pool before the facts.
 * @default 0.3
 */
export const RAISED_MESSAGE_SCORE = 0.3;
/** Most messages read from one result: a file read whole raises many; the first few say what it guards. @default 2 */
export const MAX_RAISED_PER_RESULT = 2;
/** Characters of a result looked at. @default 60000 — a long file read; the rest is on disk. */
export const RAISED_SCAN_CHARS = 60_000;
/** Longest code line taken, in characters: longer lines are generated or minified. @default 240 */
const MAX_CODE_LINE_CHARS = 240;
/** Fewest characters a message needs to say something of its own. @default 12 */
const MIN_MESSAGE_CHARS = 12;

/**
 * A statement that raises or reports an error (see `raises`): a raise or throw, a panic, an error value
 * (`errors.New(`, `Errorf(`), or a logger's warning or error call.
 */
const RAISING = new RegExp(
  [
    String.raw`\b(?:raise|throw)\b`,
    String.raw`\b(?:panic!?|bail!|Errorf)\s*\(`,
    String.raw`\berrors\.New\b`,
    String.raw`\b(?:log(?:ger|ging)?|console|warnings|LOG|Log)\s*\.\s*(?:warn(?:ing)?|error|fatal|exception|critical)\b`,
  ].join('|'),
);
/** An error's constructor called: `ValueError(`, `new IllegalStateException (`. */
const ERROR_CONSTRUCTOR = /\b[A-Za-z_$][\w$]*(?:Error|Exception|Warning)\s*\(/;
/**
 * What every error constructor's call holds, looked for first: most texts hold none, and the search for a name that
 * ends so tries every word of a text, which on a file read whole is most of the work.
 */
const CONSTRUCTOR_CALL = /(?:Error|Exception|Warning)\s*\(/;
/** A string literal, with the prefixes Python and others put before the quote (`f"…"`, `r'…'`). */
const STRING_LITERAL = /(?:^|[^\w])[fFrRbBuU]{0,2}(["'`])((?:\\.|(?!\1)[^\\\n])*)\1/g;
const LETTERS = /\p{L}/gu;

/** The error messages raised in the code of a step's result, as error facts about what was read. */
export function raisedMessageCandidates(step: ToolStep): Candidate[] {
  const content = step.result.content.length > RAISED_SCAN_CHARS ? step.result.content.slice(0, RAISED_SCAN_CHARS) : step.result.content;
  if (!raises(content)) return [];
  const lines = content.split('\n');
  const where = { messageId: step.messageId, seq: step.seq };
  const subject = step.subject ? { subject: step.subject } : {};
  const found: Candidate[] = [];
  const seen = new Set<string>();
  // A line a diff removes raises nothing any more.
  const changed = content.includes('\n@@') ? diffChanges(lines) : undefined;
  for (let i = 0; i < lines.length && found.length < MAX_RAISED_PER_RESULT; i++) {
    const line = lines[i];
    if (line.length > MAX_CODE_LINE_CHARS || changed?.get(i) === 'removed' || !raises(line) || quotedInProse(line)) continue;
    // A message too long for its line goes on the next one: `raise ValueError(` then `    f"…"`.
    const next = lines[i + 1];
    const [message, code] =
      messageOf(line) ?? (next !== undefined && next.length <= MAX_CODE_LINE_CHARS ? withNext(line, next) : undefined) ?? [];
    if (message === undefined || code === undefined || seen.has(message)) continue;
    seen.add(message);
    const key = keyOf(message);
    const fact = key === undefined ? undefined : candidate('error', code, where, RAISED_MESSAGE_SCORE, subject);
    if (fact && key !== undefined) found.push({ ...fact, key, inCode: true });
  }
  return found;
}

/**
 * True when the line's raising statement stands inside inline code (`` `raise RuntimeError(...)` ``): prose that
 * quotes code, a changelog's or a review's line, raises nothing; a template literal stands after the statement instead.
 */
function quotedInProse(line: string): boolean {
  const at = RAISING.exec(line)?.index ?? ERROR_CONSTRUCTOR.exec(line)?.index;
  return at !== undefined && (line.slice(0, at).match(/`/g)?.length ?? 0) % 2 === 1;
}

/** Whether a text raises or reports an error: a statement that does, or an error constructor's call. */
function raises(text: string): boolean {
  return RAISING.test(text) || (CONSTRUCTOR_CALL.test(text) && ERROR_CONSTRUCTOR.test(text));
}

/** The message of a line that holds it, with the line as the code shown. */
function messageOf(line: string): [string, string] | undefined {
  const message = firstMessage(line);
  return message === undefined ? undefined : [message, codeText(line)];
}

/** The message on the line after a raising line that opens a call and leaves its message for the next line. */
function withNext(line: string, next: string): [string, string] | undefined {
  if (!/[(,]\s*$/.test(line)) return undefined;
  const message = firstMessage(next);
  return message === undefined ? undefined : [message, `${codeText(line)} ${codeText(next)}`];
}

/** The first string literal of a line that reads as a message: some words, not a name or a format alone. */
function firstMessage(line: string): string | undefined {
  for (const match of line.matchAll(STRING_LITERAL)) {
    const text = match[2].trim();
    if (text.length >= MIN_MESSAGE_CHARS && /\s/.test(text) && (text.match(LETTERS)?.length ?? 0) >= MIN_MESSAGE_CHARS / 2) return text;
  }
  return undefined;
}

/** The code of a line without the line number a reader or a search put before it (`  171→`, `12:`, `path-73-`). */
function codeText(line: string): string {
  return line
    .replace(/^\s*\d+\s*(?:→|\||:|\t)/, '')
    .replace(/^[^\s:]+[-:]\d+[-:]/, '')
    .trim();
}
