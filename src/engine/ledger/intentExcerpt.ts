/**
 * The session intent as the ledger shows it. The intent is the first user request verbatim; when
 * that request is huge (a pasted log, a file inlined with the question) and its full text is kept
 * elsewhere (a file, or the live conversation), the ledger shows its start and its end around a
 * note saying where the rest is, so one paste cannot take the ledger's whole share of the window.
 * The start and end are long enough for the drift check, which matches a long intent by its head
 * and tail, to find it.
 */
import type { Ledger, UserMessageEntry } from '../model/ledgerTypes';
import { HUGE_USER_MESSAGE_TOKENS } from './userMessageOffload';
import { leftOutErrorLines, withLeftOutErrors } from './leftOutErrors';
import { formatCount } from '../text/numbers';
import { widenEnd, widenStart } from '../text/surrogatePairs';

/**
 * Characters of the intent's start shown, counted with whitespace runs as one.
 * @default 1200 — the request itself usually opens the message; enough for a few paragraphs.
 */
export const INTENT_HEAD_CHARS = 1200;

/**
 * Characters of the intent's end shown, counted with whitespace runs as one.
 * @default 400 — the closing question or instruction; well above the drift check's 120.
 */
export const INTENT_TAIL_CHARS = 400;

/** The intent's text for the ledger: verbatim, or its start and end when it is huge and kept in full elsewhere. */
export function intentText(ledger: Ledger, liveMessageIds: ReadonlySet<string>): string | undefined {
  const intent = ledger.intent;
  if (intent === undefined) return undefined;
  const entry = ledger.userMessages.find((e) => e.messageId === intent.messageId);
  const where = entry === undefined ? undefined : fullTextLocation(entry, liveMessageIds);
  if (entry === undefined || where === undefined) return intent.text;
  // A message in a file was huge for the budget (`offloadHugeUserMessages`); one still live, when it is huge in any window.
  const huge = entry.file !== undefined || entry.tokens > HUGE_USER_MESSAGE_TOKENS;
  if (!huge) return intent.text;
  return headAndTail(intent.text, INTENT_HEAD_CHARS, INTENT_TAIL_CHARS, `${formatCount(entry.tokens)} tokens in all; ${where}`);
}

/** True when the intent's own user message is shown as the intent, so it is not repeated among the earlier messages. */
export function isShownAsIntent(ledger: Ledger, entry: UserMessageEntry): boolean {
  const intent = ledger.intent;
  return intent !== undefined && intent.messageId === entry.messageId && (entry.text === intent.text || entry.file !== undefined);
}

function fullTextLocation(entry: UserMessageEntry, live: ReadonlySet<string>): string | undefined {
  if (entry.file !== undefined) return `full text: ${entry.file}`;
  if (live.has(entry.messageId)) return 'the whole message is in the conversation below';
  return undefined;
}

/**
 * `text` when it is short; otherwise its first `headChars` and last `tailChars` characters
 * (whitespace runs counted once) around a line saying what was left out and `note`, and the lines left out that read
 * as errors, up to three ({@link leftOutErrorLines}).
 */
export function headAndTail(text: string, headChars: number, tailChars: number, note: string): string {
  const head = prefixEnd(text, headChars);
  const tail = suffixStart(text, tailChars);
  if (tail <= head) return text;
  const errors = leftOutErrors(text, head, tail);
  const gap = `[… ${formatCount(tail - head)} characters left out here${errors.length > 0 ? ', but for the error lines below' : ''}; ${note} …]`;
  return withLeftOutErrors(text.slice(0, head).trimEnd(), gap, errors, text.slice(tail).trimStart());
}

/** The last text read by {@link leftOutErrors} and what it found: the ledger shows the same intent with every request. */
let lastLeftOut: { readonly text: string; readonly head: number; readonly tail: number; readonly errors: readonly string[] } | undefined;

/** The error lines a pasted log holds in the part of `text` left out, by its whole lines (the cut ones at the two ends are shown). */
function leftOutErrors(text: string, head: number, tail: number): readonly string[] {
  if (lastLeftOut?.text === text && lastLeftOut.head === head && lastLeftOut.tail === tail) return lastLeftOut.errors;
  const errors = leftOutErrorLines(text.slice(head, tail).split('\n').slice(1, -1).join('\n'));
  lastLeftOut = { text, head, tail, errors };
  return errors;
}

/** The end of the shortest prefix holding `chars` characters once whitespace runs count as one. */
function prefixEnd(text: string, chars: number): number {
  let count = 0;
  let inSpace = true;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text, i);
    if (!space || !inSpace) count++;
    inSpace = space;
    if (count >= chars) return widenEnd(text, i + 1);
  }
  return text.length;
}

/** The start of the shortest suffix holding `chars` characters once whitespace runs count as one. */
function suffixStart(text: string, chars: number): number {
  let count = 0;
  let inSpace = true;
  for (let i = text.length - 1; i >= 0; i--) {
    const space = isSpace(text, i);
    if (!space || !inSpace) count++;
    inSpace = space;
    if (count >= chars) return widenStart(text, i);
  }
  return 0;
}

/** Whitespace as `\s` defines it, the same the drift check collapses. */
const WHITESPACE = /\s/;

function isSpace(text: string, i: number): boolean {
  return WHITESPACE.test(text[i]);
}
