/**
 * Telling a usable model summary from garbage: empty text, binary data, no words at all, or far
 * longer than asked. A summary a little over its target is still a summary and is accepted.
 */
import { LIKELY_MAX_CHARS_PER_TOKEN } from './promptBudget';
import type { CountText } from '../model/countText';

/**
 * A summary longer than this many times its target is rejected.
 * @default 3 — models overshoot targets by tens of percent; three times means the target was ignored.
 */
export const MAX_TARGET_FACTOR = 3;

/**
 * Share of control characters (other than tab, newline and carriage return) beyond which text is
 * taken as binary. @default 0.01 — Markdown has none; one in a hundred is not text.
 */
export const MAX_CONTROL_CHAR_SHARE = 0.01;

/** A few stray control characters are tolerated in short texts. @default 3 */
export const TOLERATED_CONTROL_CHARS = 3;

const LETTER = /\p{L}/u;

/** Why `text` is not a usable summary for `targetTokens`, in plain words; `undefined` when it is. */
export async function garbageReason(text: string, targetTokens: number, countText: CountText): Promise<string | undefined> {
  if (text.trim().length === 0) return 'the model returned an empty summary';
  if (text.includes('\u0000')) return 'the model returned binary data (NUL characters)';
  const controls = controlCharacters(text);
  if (controls > Math.max(TOLERATED_CONTROL_CHARS, text.length * MAX_CONTROL_CHAR_SHARE)) {
    return 'the model returned text full of control characters';
  }
  if (!LETTER.test(text)) return 'the model returned a summary without any words';
  const limit = targetTokens * MAX_TARGET_FACTOR;
  if (text.length > limit * LIKELY_MAX_CHARS_PER_TOKEN) {
    return `the model returned a summary far longer than ${limit} tokens (${text.length} characters)`;
  }
  const tokens = await countText(text);
  if (tokens > limit) return `the model returned ${tokens} tokens, more than ${MAX_TARGET_FACTOR} times the target of ${targetTokens}`;
  return undefined;
}

/** Control characters other than tab, line feed and carriage return. */
function controlCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) count++;
  }
  return count;
}
