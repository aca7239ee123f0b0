/** A short, stable fingerprint of a text, for file names that must stay apart. */
import { createHash } from 'node:crypto';

/** Hex characters kept: 32 bits, so thousands of names in one folder practically never meet. */
export const SHORT_HASH_LENGTH = 8;

/** The first hex characters of the text's SHA-256. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, SHORT_HASH_LENGTH);
}
