/**
 * A message as a caller sent it to one of ctx's models. Callers re-send the whole conversation
 * with every request; each message is normalized into engine blocks, and the caller's own object
 * is kept so that a message ctx leaves unchanged is forwarded exactly as it came, with whatever
 * parts the engine does not model (images, cache markers, reasoning).
 */
import type { Block, Role } from '../types';

export interface IncomingMessage<Raw> {
  readonly role: Role;
  readonly blocks: readonly Block[];
  /**
   * What identifies content outside the blocks, such as an image's type, size and hash. Markers
   * that callers move from message to message between requests (cache breakpoints) are left out,
   * so that they do not make a known message look new.
   */
  readonly extra: readonly string[];
  readonly raw: Raw;
}
