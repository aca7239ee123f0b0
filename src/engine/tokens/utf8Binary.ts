/**
 * A string's UTF-8 bytes as a binary string (one char per byte), the key format of the rank table.
 */

/** What this needs of `TextEncoder` (whose type is not global without the DOM library). */
export interface Utf8Encoder {
  encode(text: string): Uint8Array;
}

/** Any UTF-16 code unit above 0x7F, surrogates included (no `u` flag). */
const NON_ASCII = /[\u0080-\uffff]/;
/** Bytes per `String.fromCharCode` call, well under the engine's argument limit. */
const CHUNK = 8192;

/**
 * UTF-8 bytes of `text`, one char per byte. Lone surrogates become U+FFFD (EF BF BD), exactly as
 * `TextEncoder` (and so js-tiktoken) encodes them.
 */
export function utf8Binary(text: string, encoder: Utf8Encoder): string {
  // ASCII text is its own UTF-8 encoding; most pieces take this path.
  if (!NON_ASCII.test(text)) return text;
  const bytes = encoder.encode(text);
  if (bytes.length <= CHUNK) return String.fromCharCode(...bytes);
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return out;
}
