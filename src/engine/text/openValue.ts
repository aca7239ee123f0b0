/**
 * A cut text must not end inside a value it opened: `Now in hooks.json: "Stop": [ { "hooks": […` or `func f() []string
 * { var out []string … if !strings.HasP…` reads as code that is wrong, where `Now in hooks.json: "Stop":…` reads as
 * code that goes on.
 */

const OPENERS = '([{';
const CLOSERS = ')]}';
const QUOTES = '"`';

/**
 * Where the outermost bracket or string left open by `text` opens; undefined when it closes everything it opens. Only
 * double quotes and backquotes open strings: an apostrophe is too often a word's (`don't`).
 */
export function openValueStart(text: string): number | undefined {
  const opened: number[] = [];
  let quoteAt: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoteAt !== undefined) {
      if (c === '\\') i++;
      else if (c === text[quoteAt]) quoteAt = undefined;
    } else if (QUOTES.includes(c)) quoteAt = i;
    else if (OPENERS.includes(c)) opened.push(i);
    else if (CLOSERS.includes(c)) opened.pop();
  }
  const starts = quoteAt === undefined ? opened : [...opened, quoteAt];
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
  const opened: number[] = [];
  let quote: string | undefined;
  let last: number | undefined;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (QUOTES.includes(c)) quote = c;
    else if (OPENERS.includes(c)) opened.push(i);
    else if (CLOSERS.includes(c)) last = opened.pop();
  }
  if (quote !== undefined || opened.length > 0 || last === undefined || last === 0) return undefined;
  return trimmed.slice(0, last).trimEnd();
}
