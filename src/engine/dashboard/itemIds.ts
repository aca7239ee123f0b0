/**
 * Ids of the items in a session's context, as the dashboard lists them and its actions name them:
 * a live message, a tool result (by its call), a checkpoint, a part of the ledger, or a pinned
 * entry kept in the ledger. They are plain strings so they can travel to a webview and back.
 */
import type { LedgerPart } from '../model/contextSection';
import type { Message, ToolResultBlock } from '../types';

export type ItemKind = 'message' | 'toolResult' | 'checkpoint' | 'ledger' | 'pinned';

const PREFIXES: Readonly<Record<ItemKind, string>> = {
  message: 'message:',
  toolResult: 'result:',
  checkpoint: 'checkpoint:',
  ledger: 'ledger:',
  pinned: 'pinned:',
};

/** The id of an item: its kind's prefix and the key (a message id, a call id, a checkpoint id, a ledger part, a pinned item's id). */
export function itemId(kind: ItemKind, key: string): string {
  return `${PREFIXES[kind]}${key}`;
}

/** The kind and key of an item id; undefined for anything else. */
export function parseItemId(id: unknown): { readonly kind: ItemKind; readonly key: string } | undefined {
  if (typeof id !== 'string') return undefined;
  for (const [kind, prefix] of Object.entries(PREFIXES) as [ItemKind, string][]) {
    if (id.startsWith(prefix) && id.length > prefix.length) return { kind, key: id.slice(prefix.length) };
  }
  return undefined;
}

/** The id of a ledger part's item. */
export const ledgerItemId = (part: LedgerPart): string => itemId('ledger', part);

/** A live tool result and the message holding it. */
export interface LocatedResult {
  readonly message: Message;
  readonly block: ToolResultBlock;
}

/** The live result of a call, if the context still holds it. */
export function findResult(active: readonly Message[], callId: string): LocatedResult | undefined {
  for (const message of active) {
    for (const block of message.blocks) if (block.type === 'toolResult' && block.callId === callId) return { message, block };
  }
  return undefined;
}

/** The name of the tool a call made, if the context still holds the call. */
export function toolNameOf(active: readonly Message[], callId: string): string | undefined {
  for (const m of active) for (const b of m.blocks) if (b.type === 'toolCall' && b.id === callId) return b.name;
  return undefined;
}
