/**
 * Dropping: an item the user no longer wants in the context leaves it. It stays in the archive,
 * where `/recover` and `ctx_recover` find it. A tool call and its result always go together, so
 * no request ever holds an answer to an unseen call or a call without its answer. A dropped user
 * message leaves the ledger too (the user asked for it to go); a dropped checkpoint is kept among
 * the retired ones, so its summary can still be searched.
 */
import { withRetired } from '../model/retiredCheckpoint';
import type { CompressionEvent } from '../model/compressionEvent';
import { itemId, parseItemId, toolNameOf } from '../dashboard/itemIds';
import { withoutPinned } from '../ledger/pinned';
import type { Message } from '../types';
import { refused, type ItemEdit } from './itemEdit';
import type { SessionState } from '../model/sessionState';

/** Drops a live message, a tool result (with its call) or a checkpoint. */
export function dropItem(state: SessionState, id: string, now: number): ItemEdit {
  const parsed = parseItemId(id);
  if (parsed?.kind === 'checkpoint') return dropCheckpoint(state, parsed.key, now);
  if (parsed?.kind === 'message') {
    const message = state.active.find((m) => m.id === parsed.key);
    if (!message) return refused('That message is no longer in the context.');
    const what = `${message.role} message`;
    return dropBlocks(state, new Set([message.id]), callIdsOf([message]), what, now);
  }
  if (parsed?.kind === 'toolResult') {
    const holds = state.active.some((m) => m.blocks.some((b) => b.type === 'toolResult' && b.callId === parsed.key));
    if (!holds) return refused('That tool result is no longer in the context.');
    const what = `${toolNameOf(state.active, parsed.key) ?? 'tool'} call and its result`;
    return dropBlocks(state, new Set(), new Set([parsed.key]), what, now);
  }
  return refused('Only a message, a tool result or a checkpoint can be dropped; the ledger is never dropped.');
}

/** Every call made or answered in these messages. */
function callIdsOf(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) for (const b of m.blocks) if (b.type !== 'text') ids.add(b.type === 'toolCall' ? b.id : b.callId);
  return ids;
}

/** Removes whole messages and every call and result of these calls; messages left empty go too. */
function dropBlocks(state: SessionState, messageIds: ReadonlySet<string>, calls: ReadonlySet<string>, what: string, now: number): ItemEdit {
  const active: Message[] = [];
  const gone: Message[] = [];
  for (const m of state.active) {
    if (messageIds.has(m.id)) {
      gone.push(m);
      continue;
    }
    const blocks = m.blocks.filter((b) => b.type === 'text' || !calls.has(b.type === 'toolCall' ? b.id : b.callId));
    if (blocks.length === m.blocks.length) active.push(m);
    else if (blocks.length > 0) active.push({ ...m, blocks });
    else gone.push(m);
  }
  const goneUsers = new Set(gone.filter((m) => m.role === 'user').map((m) => m.id));
  const unpinned = new Set([...gone.map((m) => itemId('message', m.id)), ...[...calls].map((c) => itemId('toolResult', c))]);
  const ledger = withoutPinned(
    goneUsers.size === 0
      ? state.ledger
      : { ...state.ledger, userMessages: state.ledger.userMessages.filter((e) => !goneUsers.has(e.messageId)) },
    unpinned,
  );
  const watermarkGone = state.watermark !== undefined && calls.has(state.watermark);
  return {
    patch: {
      active,
      ...(ledger !== state.ledger ? { ledger } : {}),
      // Everything before the watermark already left the context; without its call there is nothing left to mark.
      ...(watermarkGone ? { watermark: undefined } : {}),
    },
    events: [dropEvent(now, `Dropped the ${what} from the context; the archive keeps it (search it with /recover)`)],
    done: `Dropped the ${what}. The archive keeps it: /recover finds it.`,
  };
}

function dropCheckpoint(state: SessionState, id: string, now: number): ItemEdit {
  const checkpoint = state.checkpoints.find((c) => c.id === id);
  if (!checkpoint) return refused('That checkpoint is no longer in the context.');
  return {
    patch: {
      checkpoints: state.checkpoints.filter((c) => c.id !== id),
      retiredCheckpoints: withRetired(state.retiredCheckpoints, [{ checkpoint, reason: 'dropped', at: now }]),
    },
    events: [
      dropEvent(now, `Dropped the checkpoint of ${checkpoint.range}; its summary is kept and the archive has every original message`),
    ],
    done: `Dropped the checkpoint of ${checkpoint.range}. Its summary is kept, and /recover searches it and the originals.`,
  };
}

function dropEvent(at: number, detail: string): CompressionEvent {
  return { at, kind: 'drop', savedTokens: 0, detail, name: 'item-dropped' };
}
