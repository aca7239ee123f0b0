/** A short, stable fingerprint of a text, for file names that must stay apart. */
import { createHash } from 'node:crypto';

/** Hex characters kept: 32 bits, so thousands of names in one folder practically never meet. */
export const SHORT_HASH_LENGTH = 8;

/** The first hex characters of the text's SHA-256. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, SHORT_HASH_LENGTH);
}

/** `shortHash` of texts taken one after another (each ended by a NUL), without joining them first. */
export function shortHashOfParts(parts: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part, 'utf8').update('\u0000');
  return hash.digest('hex').slice(0, SHORT_HASH_LENGTH);
}
