/**
 * Tokens a machine made for machines: a signed redirect's key, a presigned link's signature. Nobody reads or types
 * one, so a line that holds one says nothing by it, and every request would pay for its tokens.
 */

/**
 * A run of letters, digits, `-` and `_` at least this long, mixed in case and with digits, is such a token.
 * @default 64 — longer than a document's id (44) or a hash in hex (40).
 */
export const MACHINE_TOKEN_CHARS = 64;
const LONG_RUN = new RegExp(`[A-Za-z0-9_-]{${MACHINE_TOKEN_CHARS},}`, 'g');

/** True when `text` holds a token a machine made (see {@link MACHINE_TOKEN_CHARS}). */
export function holdsMachineToken(text: string): boolean {
  for (const run of text.matchAll(LONG_RUN)) {
    const token = run[0];
    if (/[A-Z]/.test(token) && /[a-z]/.test(token) && /\d/.test(token)) return true;
  }
  return false;
}
