/**
 * A token estimate for when the exact encoder is not built yet.
 *
 * English text and code average about four characters per token. Other scripts cost far more
 * per character (CJK is about one token per character, an emoji two or three), so each non-ASCII
 * UTF-16 unit counts as a whole token. That overestimates accented Latin text, which is the safe
 * side for a budget: a few hundred milliseconds of caution beat an overflowing context.
 */

const ASCII_CHARS_PER_TOKEN = 4;
const TOKENS_PER_NON_ASCII_UNIT = 1;

/** Roughly how many tokens `text` encodes to; never less than the ASCII-only rule gives. */
export function estimateTokens(text: string): number {
  let nonAscii = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) nonAscii++;
  }
  const ascii = text.length - nonAscii;
  return Math.ceil(ascii / ASCII_CHARS_PER_TOKEN + nonAscii * TOKENS_PER_NON_ASCII_UNIT);
}
