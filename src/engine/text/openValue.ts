/**
 * The brackets and strings a text opens and closes. A cut text must not end inside a value it opened:
 * `Now in hooks.json: "Stop": [ { "hooks": […` or `func f() []string { var out []string … if !strings.HasP…` reads as
 * code that is wrong, where `Now in hooks.json: "Stop":…` reads as code that goes on. Only double quotes and backquotes
 * open strings: an apostrophe is too often a word's (`don't`).
 */

const OPENERS = '([{';
const CLOSERS = ')]}';
const QUOTES = '"`';

/** What one pass over a text found of its brackets and strings. */
interface Brackets {
  /** Where each bracket still open at the end opens, outermost first. */
  readonly open: readonly number[];
  /** Where a string still open at the end opens. */
  readonly quoteAt?: number;
  /** Where the bracket that closed last opened. */
  readonly lastClosedAt?: number;
  /** True when the text closes a bracket it did not open. */
  readonly overClosed: boolean;
}

function scan(text: string): Brackets {
  const open: number[] = [];
  let quoteAt: number | undefined;
  let lastClosedAt: number | undefined;
  let overClosed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoteAt !== undefined) {
      if (c === '\\') i++;
      else if (c === text[quoteAt]) quoteAt = undefined;
    } else if (QUOTES.includes(c)) quoteAt = i;
    else if (OPENERS.includes(c)) open.push(i);
    else if (CLOSERS.includes(c)) {
      lastClosedAt = open.pop();
      overClosed ||= lastClosedAt === undefined;
    }
  }
  return { open, quoteAt, lastClosedAt, overClosed };
}

/**
 * How many brackets `text` leaves open outside its strings (a string left open counts as one); below zero when it
 * closes one it did not open.
 */
export function bracketsLeftOpen(text: string): number {
  const found = scan(text);
  if (found.overClosed) return -1;
  return found.open.length + (found.quoteAt === undefined ? 0 : 1);
}

/** Where the outermost bracket or string left open by `text` opens; undefined when it closes everything it opens. */
export function openValueStart(text: string): number | undefined {
  const { open, quoteAt } = scan(text);
  const starts = quoteAt === undefined ? open : [...open, quoteAt];
  return starts.length === 0 ? undefined : Math.min(...starts);
}

/**
 * A text cut with `shortenEnd` (it ends with `…`), cut further back to before the value it left open, with the
 * ellipsis after it; the text as it is when it left nothing open, or when nothing would be left before the value.
 */
export function closedCut(cut: string): string {
  if (!cut.endsWith('…')) return cut;
  const body = cut.slice(0, -1);
  const start = openValueStart(body);
  if (start === undefined) return cut;
  const before = body.slice(0, start).trimEnd();
  return before.length === 0 ? cut : `${before}…`;
}

/**
 * What a value that ends by closing a bracket says before that bracket opens: `func f(a int) []string` of
 * `func f(a int) []string { … }`, `"Stop":` of `"Stop": [ … ]`. Undefined when the text does not end by closing a bracket
 * opened after its start.
 */
export function valueHead(text: string): string | undefined {
  const trimmed = text.trimEnd();
  if (!CLOSERS.includes(trimmed[trimmed.length - 1] ?? '')) return undefined;
  const { open, quoteAt, lastClosedAt, overClosed } = scan(trimmed);
  if (overClosed || quoteAt !== undefined || open.length > 0 || lastClosedAt === undefined || lastClosedAt === 0) return undefined;
  return trimmed.slice(0, lastClosedAt).trimEnd();
}
