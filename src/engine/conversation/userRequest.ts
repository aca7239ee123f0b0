/**
 * Whether a caller's message is a request the user wrote: a user message with text of its own
 * (not injected). The first one is what a conversation is about; a caller that rewrites its
 * history often keeps it, so it is one of the things a rewritten conversation is recognised by.
 */
import { userWrote } from '../types';
import type { DigestInput } from './digest';

export function isUserRequest(m: DigestInput): boolean {
  return userWrote(m);
}

/** Whether a caller's message carries a tool call or result: its ids make it recognisable on its own. */
export function isAnchor(m: DigestInput): boolean {
  return m.blocks.some((b) => b.type !== 'text');
}

/**
 * Whether a shared prefix says the request belongs to the same conversation: a caller's system
 * prompt alone is shared by all its conversations, so a request that shares only that and then
 * differs is another conversation (or its first request edited), which starts its own session.
 */
export function sharesMoreThanInstructions(shared: readonly DigestInput[]): boolean {
  return shared.length === 0 || shared.some((m) => isUserRequest(m) || isAnchor(m) || m.role === 'assistant');
}
