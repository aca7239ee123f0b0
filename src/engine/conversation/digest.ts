/**
 * Fingerprints of messages and of conversation prefixes. A message's digest covers its role, its
 * blocks and its extra content; a prefix's chain digest covers every message up to it, so two
 * conversations share a chain digest at position i exactly when their first i + 1 messages are
 * the same.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Block, Role } from '../types';

/** What a digest is computed over. */
export interface DigestInput {
  readonly role: Role;
  readonly blocks: readonly Block[];
  readonly extra: readonly string[];
}

/** The digest of one message (hex). Tool inputs are canonicalized, so key order does not matter. */
export function messageDigest(message: DigestInput): string {
  const hash = createHash('sha1');
  field(hash, message.role);
  for (const block of message.blocks) {
    switch (block.type) {
      case 'text':
        field(hash, 'text');
        field(hash, block.text);
        break;
      case 'toolCall':
        field(hash, 'call');
        field(hash, block.id);
        field(hash, block.name);
        field(hash, canonicalJson(block.input));
        break;
      case 'toolResult':
        field(hash, block.isError ? 'error' : 'result');
        field(hash, block.callId);
        field(hash, block.content);
        break;
    }
  }
  for (const e of message.extra) {
    field(hash, 'extra');
    field(hash, e);
  }
  return hash.digest('hex');
}

/** The chain digest of a prefix: the previous prefix's chain digest and this message's digest. */
export function chainDigest(previous: string | undefined, digest: string): string {
  return createHash('sha1')
    .update(previous ?? '')
    .update(':')
    .update(digest)
    .digest('hex');
}

/** Chain digests of every prefix of a list of message digests. */
export function chainOf(digests: readonly string[]): string[] {
  const chain: string[] = [];
  let previous: string | undefined;
  for (const d of digests) {
    previous = chainDigest(previous, d);
    chain.push(previous);
  }
  return chain;
}

/** Length-prefixed, so that no two different field sequences hash the same bytes. */
function field(hash: Hash, value: string): void {
  hash.update(`${value.length}:`);
  hash.update(value);
}

/** JSON with object keys sorted, at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
