/**
 * Pinned items in the ledger: what the user asked to keep verbatim through every compression. A
 * pinned item that is still in the live context as it was pinned is not repeated; once a checkpoint
 * takes it, or a tier changes it (a result compressed in place, offloaded or dropped before a
 * watermark), the ledger shows the copy kept here.
 */
import type { Message } from '../types';
import type { Ledger, PinnedEntry } from '../model/ledgerTypes';

export const PINNED_HEADING = '### Pinned';
export const PINNED_NOTE = '_Pinned by the user: kept verbatim through every compression._';

/** A message's text as a pin keeps it: its text, then each tool call it makes, one a line. */
export function pinnedMessageText(m: Message): string {
  return m.blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'toolCall' ? [`[tool call] ${b.name} ${JSON.stringify(b.input)}`] : []))
    .join('\n');
}

/** The ledger with the entry pinned, replacing an earlier pin of the same item. */
export function withPinned(ledger: Ledger, entry: PinnedEntry): Ledger {
  const rest = (ledger.pinned ?? []).filter((p) => p.itemId !== entry.itemId);
  return { ...ledger, pinned: [...rest, entry] };
}

/** The ledger without pins of these items; the same ledger when none was pinned. */
export function withoutPinned(ledger: Ledger, itemIds: ReadonlySet<string>): Ledger {
  const pinned = ledger.pinned ?? [];
  const kept = pinned.filter((p) => !itemIds.has(p.itemId));
  return kept.length === pinned.length ? ledger : { ...ledger, pinned: kept };
}

/** The ids of pinned items still in the live context exactly as they were pinned. */
export function pinnedStillLive(pinned: readonly PinnedEntry[], active: readonly Message[]): Set<string> {
  const live = new Set<string>();
  if (pinned.length === 0) return live;
  const byMessage = new Map(active.map((m) => [m.id, m]));
  const resultText = new Map<string, string>();
  if (pinned.some((p) => p.kind === 'toolResult')) {
    for (const m of active) for (const b of m.blocks) if (b.type === 'toolResult') resultText.set(b.callId, b.content);
  }
  for (const p of pinned) {
    const message = byMessage.get(p.messageId);
    const same =
      p.kind === 'message' ? message !== undefined && pinnedMessageText(message) === p.text : resultText.get(p.callId ?? '') === p.text;
    if (same) live.add(p.itemId);
  }
  return live;
}

/** The pinned items no longer live, verbatim; undefined when there are none. */
export function pinnedSection(ledger: Ledger, livePinned: ReadonlySet<string>): string | undefined {
  const shown = (ledger.pinned ?? []).filter((p) => !livePinned.has(p.itemId));
  if (shown.length === 0) return undefined;
  return [`${PINNED_HEADING}\n${PINNED_NOTE}`, ...shown.map((p) => `**Pinned ${p.label}:**\n${p.text}`)].join('\n\n');
}
