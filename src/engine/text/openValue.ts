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
