/**
 * Shortening text for summaries, prompts and the ledger: keep the start and the end, say how much was left
 * out in between, so a reader knows the text is incomplete and by how much.
 */
import { narrowEnd, narrowStart } from './surrogatePairs';

/**
 * Share of the kept characters taken from the start of the text.
 * @default 0.6 — the start of an output says what it is (a command's header, a file's imports),
 * the end says how it finished (an exit status, a summary line); the start is slightly more useful.
 */
export const HEAD_SHARE = 0.6;

/** The note put where characters were left out. */
export function omittedNote(omitted: number): string {
  return `[… ${omitted} characters omitted …]`;
}

/**
 * `text` if it has at most `maxChars` characters; otherwise its head and tail around a
 * "[… N characters omitted …]" line, about `maxChars` characters in all.
 */
export function shortenMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars - omittedNote(text.length).length - 2);
  const head = narrowEnd(text, Math.ceil(budget * HEAD_SHARE));
  const tail = narrowStart(text, text.length - (budget - head));
  return `${text.slice(0, head)}\n${omittedNote(tail - head)}\n${text.slice(tail)}`;
}

/** `text` cut to at most `maxChars` characters, an ellipsis marking the cut. */
export function shortenEnd(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '…';
  return `${text.slice(0, narrowEnd(text, maxChars - 1)).trimEnd()}…`;
}

/** `text` cut at its start to at most `maxChars` characters, an ellipsis marking the cut. */
export function shortenStart(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return '…';
  return `…${text.slice(narrowStart(text, text.length - (maxChars - 1))).trimStart()}`;
}

/** `text` on one line with its spacing as written: only what breaks it onto more lines becomes a space. */
export function onOneLine(text: string): string {
  return text.replace(/[\r\n\f\v]+/g, ' ');
}

/** `text` on one line: runs of whitespace become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
