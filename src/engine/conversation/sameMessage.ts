/**
 * Whether two messages say exactly the same thing, compared field by field without serializing:
 * comparing two equal strings is a memory comparison, far cheaper than hashing them again.
 */
import type { Block } from '../types';
import type { DigestInput } from './digest';

export function sameMessage(a: DigestInput, b: DigestInput): boolean {
  if (a === b) return true;
  if (a.role !== b.role || a.blocks.length !== b.blocks.length || a.extra.length !== b.extra.length) return false;
  for (let i = 0; i < a.extra.length; i++) if (a.extra[i] !== b.extra[i]) return false;
  for (let i = 0; i < a.blocks.length; i++) if (!sameBlock(a.blocks[i], b.blocks[i])) return false;
  return true;
}

function sameBlock(a: Block, b: Block): boolean {
  if (a === b) return true;
  switch (a.type) {
    case 'text':
      return b.type === 'text' && a.text === b.text;
    case 'toolCall':
      return b.type === 'toolCall' && a.id === b.id && a.name === b.name && sameJson(a.input, b.input);
    case 'toolResult':
      return b.type === 'toolResult' && a.callId === b.callId && a.isError === b.isError && a.content === b.content;
  }
}

/** Deep equality of JSON values; object key order does not matter, as in the digest. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a);
  const ob = b as Record<string, unknown>;
  if (ka.length !== Object.keys(ob).length) return false;
  const oa = a as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && sameJson(oa[k], ob[k]));
}
