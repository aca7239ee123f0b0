/**
 * Where each message stands in its turn: the order of its blocks, what the calls that follow an
 * assistant message name and change, and whether the message ends the assistant's turn.
 */
import { onlyLooks } from '../ledger/lookPrograms';
import type { ToolActivity } from '../ledger/toolActivity';
import { toolCalls, type Message, type ToolCallBlock } from '../types';
import type { ActedOn } from './proseFacts';
import { inputValues } from './terms';

/** The sequence number of each message's first block, counted as `readToolSteps` counts. */
export function blockStarts(messages: readonly Message[]): number[] {
  const starts: number[] = [];
  let seq = 1;
  for (const msg of messages) {
    starts.push(seq);
    seq += msg.blocks.length;
  }
  return starts;
}

/**
 * For each assistant message, what its own calls name, or else what the next assistant message's
 * calls name (within the turn); `isRead` tells a call that only reads a file.
 */
export function actedOnByMessage(
  messages: readonly Message[],
  isChange: (call: ToolCallBlock) => boolean,
  isRead: (call: ToolCallBlock) => boolean = () => false,
): (ActedOn | undefined)[] {
  const out: (ActedOn | undefined)[] = new Array<ActedOn | undefined>(messages.length);
  let next: ActedOn | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = messages[i];
    if (msg.role === 'user') next = undefined;
    if (msg.role !== 'assistant') continue;
    const calls = toolCalls(msg);
    const own =
      calls.length === 0
        ? undefined
        : {
            text: calls.map((c) => inputValues(c.input)).join('\n'),
            changes: calls.some(isChange),
            readsOnly: calls.every(isRead),
          };
    out[i] = own ?? next;
    next = own ?? next;
  }
  return out;
}

/** A call that runs something or writes a file, rather than only looking (a read, a listing, a search). */
export function changes(activity: ToolActivity): boolean {
  if (activity.kind === 'command') return !onlyLooks(activity.commands);
  return activity.kind === 'file' && activity.action !== 'read';
}

/** An assistant message without calls that a user message (or nothing) follows: the answer of its turn. */
export function endsTurn(messages: readonly Message[], i: number): boolean {
  if (toolCalls(messages[i]).length > 0) return false;
  for (let j = i + 1; j < messages.length; j++) {
    const role = messages[j].role;
    if (role === 'user') return true;
    if (role === 'assistant') return false;
  }
  return true;
}

/** A call that only reads a file. */
export function readsFile(activity: ToolActivity): boolean {
  return activity.kind === 'file' && activity.action === 'read';
}
