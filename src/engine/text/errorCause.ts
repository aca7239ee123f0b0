/**
 * A long error line cut so that its cause stays. Errors are wrapped as they travel up (`deploy checkout: rollout
 * status: pod checkout-7f9c: container "app" is waiting: CrashLoopBackOff`, Go's `%w`, Rust's context chains, a
 * logger's `err="…"`): the start says what failed, the last parts why. Cut at its end, such a line keeps what failed
 * and loses why; this keeps the start and the last parts that fit, with an ellipsis between.
 */
import { narrowEnd } from './surrogatePairs';

/** Where one wrapped part ends and the next begins: a colon and a space before a word (`open config: permission denied`). */
const PART_START = /: (?=["'`(\p{L}])/gu;
const JOINER = ' … ';
/** Least share of the room the start keeps: enough to say what failed. @default 0.25 */
const MIN_HEAD_SHARE = 0.25;

/** A line cut to its start and its cause, and the cause as written; undefined when the line fits or has no part that fits. */
export interface KeptCause {
  readonly text: string;
  readonly cause: string;
}

/** `line` cut to at most `maxChars`, keeping its start and as many of its last wrapped parts as fit (see the module comment). */
export function keepingCause(line: string, maxChars: number): KeptCause | undefined {
  if (line.length <= maxChars) return undefined;
  const minHead = Math.ceil(maxChars * MIN_HEAD_SHARE);
  // The earliest part whose rest fits beside a start of `minHead` gives the longest cause; it is looked for only where
  // such a part can start, so a huge line costs no more than its end.
  const earliest = Math.max(minHead + 1, line.length - (maxChars - JOINER.length - minHead));
  PART_START.lastIndex = earliest - 2;
  const quoted = quotedSpans(line);
  let match = PART_START.exec(line);
  while (match !== null && quoted(match.index)) match = PART_START.exec(line);
  if (match === null) return undefined;
  const cause = line.slice(match.index + 2).trimEnd();
  const room = maxChars - JOINER.length - cause.length;
  const head = line.slice(0, narrowEnd(line, wordEnd(line, Math.min(room, match.index), minHead))).trimEnd();
  return { text: `${head}${JOINER}${cause}`, cause };
}

/**
 * Whether a position of `line` is inside a quoted value (`'…'`, `"…"`, `` `…` ``) or a bracketed one (`{…}`, `[…]`,
 * `(…)`): a colon there belongs to what is quoted or printed whole (a type a compiler prints, `'{ readonly label:
 * "Editor"; … }'`; a record a validator prints, `input_value={'id': 'o-17'}`), not to a wrapped part. A quote opens at
 * the start of a word, so an apostrophe inside one (`can't`) opens nothing; a value still open at the line's end runs to
 * it. Asked in increasing order of position: one pass over the line.
 */
function quotedSpans(line: string): (at: number) => boolean {
  let scanned = 0;
  let open: string | undefined;
  let depth = 0;
  return (at) => {
    for (; scanned < at; scanned++) {
      const c = line[scanned];
      if (open === undefined) {
        if (QUOTES.includes(c) && (scanned === 0 || OPENS_BEFORE.test(line[scanned - 1]))) open = c;
        else if (OPENING_BRACKETS.includes(c)) depth++;
        else if (CLOSING_BRACKETS.includes(c) && depth > 0) depth--;
      } else if (c === open && (scanned + 1 === line.length || !WORD_CHAR.test(line[scanned + 1]))) open = undefined;
    }
    return open !== undefined || depth > 0;
  };
}
const OPENING_BRACKETS = '([{';
const CLOSING_BRACKETS = ')]}';
const QUOTES = `'"\``;
/** What may stand before an opening quote: a space or an opening bracket. */
const OPENS_BEFORE = /[\s([{=]/;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** `end`, or the last space before it when the cut would break a word and a space comes after `least`. */
function wordEnd(line: string, end: number, least: number): number {
  if (end >= line.length || line[end] === ' ' || line[end] === ':') return end;
  const space = line.lastIndexOf(' ', end);
  return space > least ? space : end;
}
