/** A fact as extraction finds it, before duplicates are merged and the best are chosen. */
import { oneLine, shortenEnd } from '../text/shorten';
import type { Fact, FactKind } from '../model/fact';
import { keyOf, nameKeyOf } from '../facts/factKey';
import { keepingCause } from '../text/errorCause';

/** A fact with where it was found, for ordering. */
export interface Candidate extends Fact {
  /** Order of the block it was read from among everything read. */
  readonly seq: number;
}

/**
 * Longest fact text kept, in characters.
 * @default 240 — a long sentence; the key, at most 100 characters from its start, always survives.
 */
export const MAX_FACT_TEXT_CHARS = 240;

/**
 * A candidate whose key is taken from the start of `text`, or of `knownBy`, the part of it that tells it from another
 * (an error's message after a wrapper that several errors share); undefined when the text has no usable key.
 */
export function candidate(
  kind: FactKind,
  text: string,
  where: { readonly messageId: string; readonly seq: number },
  score: number,
  more: Pick<Fact, 'subject' | 'resolution'> = {},
  knownBy?: string,
): Candidate | undefined {
  // On one line, as written: a column-aligned output line keeps its spacing, so it is found verbatim.
  const line = /[\n\r]/.test(text) ? oneLine(text) : text.trim();
  // A long error keeps its cause, and is known by it: what the line ends with says why it failed. Known by a part of
  // its own (a body's message after the wrapper), it is that part, cut at its end.
  const kept = kind === 'error' && knownBy === undefined ? keepingCause(line, MAX_FACT_TEXT_CHARS) : undefined;
  const key = keyOf(kept?.cause ?? knownBy ?? line);
  if (key === undefined) return undefined;
  const shown = kept?.text ?? shortenEnd(line, MAX_FACT_TEXT_CHARS);
  return { kind, key, text: shown, messageId: where.messageId, seq: where.seq, score, ...more };
}

/** A candidate whose key is the name `key` (a path, an id, a URL; its end when long), shown as `text`. */
export function keyedCandidate(
  kind: FactKind,
  key: string,
  text: string,
  where: { readonly messageId: string; readonly seq: number },
  score: number,
): Candidate | undefined {
  const exact = nameKeyOf(key);
  if (exact === undefined) return undefined;
  return { kind, key: exact, text: shortenEnd(oneLine(text), MAX_FACT_TEXT_CHARS), messageId: where.messageId, seq: where.seq, score };
}
