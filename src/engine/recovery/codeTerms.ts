/**
 * Tokenization for code, logs and prose alike. A word is a run of letters, digits and underscores;
 * each word is kept whole (so `handleRequest` and `ECONNREFUSED` match exactly) and also split into
 * its camelCase and snake_case parts (so `request` finds `handleRequest`).
 */

/** A word, with the backslash before it when there is one: `\nimport` is an escape glued to a word. */
const WORD = /\\?[\p{L}\p{N}_]+/gu;
/** Between a lower-case letter or digit and an upper-case one, and before the last capital of an acronym run (`HTTPServer`). */
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/** JSON and string-literal escapes glued to the next word: `\nimport` must also yield `import`. */
const ESCAPE_LETTERS = new Set(['n', 'r', 't']);
const BACKSLASH = 0x5c;

/** Terms longer than this are base64, hashes of hashes or minified noise: indexing them only bloats the index. */
export const MAX_TERM_LENGTH = 100;

/**
 * Splits text into search terms (case kept; `normalizeTerm` lower-cases them). Every passage of a
 * session goes through here, so it allocates only the terms: no match objects, no parts for plain words.
 */
export function codeTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.match(WORD) ?? []) {
    if (match.charCodeAt(0) !== BACKSLASH) {
      addWord(terms, match);
      continue;
    }
    const word = match.slice(1);
    addWord(terms, word);
    if (word.length > 1 && ESCAPE_LETTERS.has(word[0])) addWord(terms, word.slice(1));
  }
  return terms;
}

/** The parts of an identifier: `parse_HTTPResponse2` → `parse`, `HTTP`, `Response2`. */
export function identifierParts(word: string): string[] {
  return word
    .split('_')
    .flatMap((piece) => piece.split(CAMEL_BOUNDARY))
    .filter((part) => part.length > 0);
}

/** Lower-cases a term; drops terms too long to be worth indexing. */
export function normalizeTerm(term: string): string | null {
  return term.length > MAX_TERM_LENGTH ? null : term.toLowerCase();
}

function addWord(terms: string[], word: string): void {
  terms.push(word);
  // Only a word with an underscore or a camelCase boundary has parts; most words have neither.
  if (!word.includes('_') && !CAMEL_BOUNDARY.test(word)) return;
  const parts = identifierParts(word);
  if (parts.length > 1) for (const part of parts) terms.push(part);
}
