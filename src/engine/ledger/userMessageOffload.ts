/**
 * User messages are kept verbatim forever, but a huge one (a pasted log, a whole file) that has
 * left the live context goes to a file; the ledger keeps its start, its end and the path. A message
 * whose file cannot be written stays verbatim in the ledger: it is never lost.
 */
import type { Store } from '../ports';
import { safeFileNamePart, toWellFormed } from '../text/sanitize';
import { HEAD_SHARE, shortenEnd, shortenMiddle, shortenStart } from '../text/shorten';
import type { Ledger, UserMessageEntry } from '../model/ledgerTypes';
import { errorMessage } from '../errors';
import { leftOutErrorLines, withLeftOutErrors } from './leftOutErrors';

/** User messages above this many tokens leave the ledger for a file once they are out of the live context. */
export const HUGE_USER_MESSAGE_TOKENS = 2000;
/** In a small budget, a text is worth a file from this share of it. @default 0.1 */
export const SMALL_BUDGET_FILE_SHARE = 0.1;
/** Below this many tokens a text's preview and path would take about as much room as the text. @default 200 */
export const MIN_FILE_TOKENS = 200;

/**
 * The size from which a text is worth a file: a huge message's, or a tenth of a small budget, where a message of a
 * few hundred tokens kept whole in every request would take the room of everything said since.
 */
export function worthAFileTokens(budget?: number): number {
  if (budget === undefined || budget <= 0) return HUGE_USER_MESSAGE_TOKENS;
  return Math.min(HUGE_USER_MESSAGE_TOKENS, Math.max(MIN_FILE_TOKENS, Math.floor(budget * SMALL_BUDGET_FILE_SHARE)));
}
/** The preview kept in the ledger: at most this many lines… */
export const USER_PREVIEW_MAX_LINES = 15;
/** …and at most this many characters. */
export const USER_PREVIEW_MAX_CHARS = 800;

export interface UserMessageOffloadOptions {
  /** Messages still in the active context keep their text in the ledger. */
  readonly liveMessageIds: ReadonlySet<string>;
  readonly store: Store;
  /** Store folder for the files, e.g. `sessions/<id>/user`. */
  readonly folder: string;
  readonly now: number;
  /** The request's budget: a message is huge from a tenth of a small one (see {@link worthAFileTokens}). */
  readonly budgetTokens?: number;
}

export interface UserMessageOffloadResult {
  readonly ledger: Ledger;
  /** Store paths written. */
  readonly files: string[];
  /** One line per message whose file could not be written (`<messageId>: <reason>`); those stay verbatim. */
  readonly failures: string[];
}

/** Moves huge user messages that are no longer live to files, keeping a preview and the path. */
export async function offloadHugeUserMessages(ledger: Ledger, opts: UserMessageOffloadOptions): Promise<UserMessageOffloadResult> {
  const files: string[] = [];
  const failures: string[] = [];
  let changed = false;
  const entries: UserMessageEntry[] = [];
  // The preview a file leaves takes about MIN_FILE_TOKENS: a message that goes is at least twice that.
  const huge = Math.max(worthAFileTokens(opts.budgetTokens), 2 * MIN_FILE_TOKENS);
  for (const entry of ledger.userMessages) {
    if (!isDue(entry, opts.liveMessageIds, huge) || entry.text === undefined) {
      entries.push(entry);
      continue;
    }
    const file = `${opts.folder}/${userMessageFileName(opts.now, entry.messageId)}`;
    try {
      await opts.store.write(file, toWellFormed(entry.text).text);
    } catch (error) {
      failures.push(`${entry.messageId}: ${errorMessage(error)}`);
      entries.push(entry);
      continue;
    }
    files.push(file);
    entries.push({ messageId: entry.messageId, at: entry.at, file, preview: userMessagePreview(entry.text), tokens: entry.tokens });
    changed = true;
  }
  return { ledger: changed ? { ...ledger, userMessages: entries } : ledger, files, failures };
}

function isDue(entry: UserMessageEntry, live: ReadonlySet<string>, huge: number): boolean {
  return entry.file === undefined && entry.tokens > huge && !live.has(entry.messageId);
}

/** `20260121_103522_user_<messageId>.md`, the id made safe for a file name. */
export function userMessageFileName(at: number, messageId: string): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `${day}_${time}_user_${safeFileNamePart(messageId, 'message')}.md`;
}

/**
 * The start and the end of a message, within the preview limits, around a line that says lines were left out: a pasted
 * log ends with its error, a long request with what it asks for. The lines left out that read as errors are shown
 * between them, up to three ({@link leftOutErrorLines}). A message within the limits is its own preview.
 */
export function userMessagePreview(text: string): string {
  const lines = text.trimEnd().split('\n');
  if (lines.length <= USER_PREVIEW_MAX_LINES && text.length <= USER_PREVIEW_MAX_CHARS) return text;
  const headLines = Math.ceil(USER_PREVIEW_MAX_LINES * HEAD_SHARE);
  // A few long lines (a minified file, a log on one line) are cut inside them.
  if (lines.length <= headLines) return shortenMiddle(text.trimEnd(), USER_PREVIEW_MAX_CHARS);
  const head = shortenEnd(lines.slice(0, headLines).join('\n'), Math.ceil(USER_PREVIEW_MAX_CHARS * HEAD_SHARE));
  // The end: the last lines that fit beside the start and the line between them, never a line the start shows.
  const rest = lines.slice(headLines);
  const tailLines = rest.slice(Math.max(0, rest.length - (USER_PREVIEW_MAX_LINES - headLines - 1)));
  const whole = tailLines.join('\n');
  const tail = shortenStart(whole, USER_PREVIEW_MAX_CHARS - head.length - GAP_LINE_CHARS);
  if (tailLines.length === rest.length && tail === whole) return `${head}\n${tail}`;
  // The error a pasted log holds between its start and its end, which the rest of the log is there for.
  return withLeftOutErrors(head, '[…]', leftOutErrorLines(rest.slice(0, rest.length - tailLines.length).join('\n')), tail);
}

/** Characters the line between the start and the end takes, with its line breaks. */
const GAP_LINE_CHARS = 5;
