/**
 * Pinning: a message or a tool result the user wants kept verbatim through every compression goes
 * into the ledger as it stands now (see `ledger/pinned.ts`). The user's own messages need no pin:
 * the ledger keeps every one of them already.
 */
import { itemId, parseItemId, findResult, toolNameOf } from '../dashboard/itemIds';
import { pinnedMessageText, withoutPinned, withPinned } from '../ledger/pinned';
import type { PinnedEntry } from '../model/ledgerTypes';
import { refused, type ItemEdit } from './itemEdit';
import type { SessionState } from '../model/sessionState';

export interface PinDeps {
  countText(text: string): Promise<number>;
  readonly now: number;
}

/** Pins a live message or tool result. */
export async function pinItem(state: SessionState, id: string, deps: PinDeps): Promise<ItemEdit> {
  const parsed = parseItemId(id);
  const entry = parsed ? await pinnedEntry(state, parsed.kind, parsed.key, deps) : undefined;
  if (typeof entry === 'string') return refused(entry);
  if (!entry) return refused('Only a message or a tool result in the context can be pinned.');
  const pinned = state.ledger.pinned ?? [];
  if (pinned.some((p) => p.itemId === entry.itemId && p.text === entry.text)) return { done: `The ${entry.label} is pinned already.` };
  return {
    patch: { ledger: withPinned(state.ledger, entry) },
    done: `Pinned the ${entry.label}: it is kept verbatim through every compression.`,
  };
}

/** Unpins an item, by its id or its pinned entry's id. */
export function unpinItem(state: SessionState, id: string): ItemEdit {
  const parsed = parseItemId(id);
  const key = parsed?.kind === 'pinned' ? parsed.key : id;
  const entry = (state.ledger.pinned ?? []).find((p) => p.itemId === key);
  if (!entry) return refused('That item is not pinned.');
  return {
    patch: { ledger: withoutPinned(state.ledger, new Set([key])) },
    done: `Unpinned the ${entry.label}: compressions treat it like any other item again.`,
  };
}

async function pinnedEntry(state: SessionState, kind: string, key: string, deps: PinDeps): Promise<PinnedEntry | string | undefined> {
  if (kind === 'message') {
    const message = state.active.find((m) => m.id === key);
    if (!message) return 'That message is no longer in the context.';
    if (message.role === 'user') return 'Your messages are always kept verbatim in the ledger: there is no need to pin them.';
    const text = pinnedMessageText(message);
    if (!text.trim()) return 'That message has no text to pin.';
    const label = `${message.role} message`;
    return {
      itemId: itemId('message', key),
      kind: 'message',
      messageId: key,
      label,
      text,
      tokens: await deps.countText(text),
      at: deps.now,
    };
  }
  if (kind === 'toolResult') {
    const found = findResult(state.active, key);
    if (!found) return 'That tool result is no longer in the context.';
    const label = `${found.block.toolName ?? toolNameOf(state.active, key) ?? 'tool'} result`;
    const text = found.block.content;
    return {
      itemId: itemId('toolResult', key),
      kind: 'toolResult',
      messageId: found.message.id,
      callId: key,
      label,
      text,
      tokens: await deps.countText(text),
      at: deps.now,
    };
  }
  return undefined;
}
