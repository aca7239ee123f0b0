/**
 * Every item in the context, largest first: the live messages, their tool results, the checkpoints,
 * the ledger's parts and the pinned items the ledger shows. Each says what can be done with it:
 * open it, pin it (kept verbatim through every compression), drop it (it leaves the context and
 * stays in the archive), offload it to a file now. Tokens come from the engine's measurement; the
 * text shown for each is built only for the items listed.
 */
import { AGE_LABELS } from '../checkpoints/aging';
import { pinnedStillLive } from '../ledger/pinned';
import { oneLine, shortenEnd } from '../text/shorten';
import { KEEP_SMALL_BELOW_TOKENS } from '../tiers/offload';
import type { PinnedEntry } from '../model/ledgerTypes';
import type { SessionState } from '../model/sessionState';
import type { Message, ToolResultBlock } from '../types';
import { COMPOSITION_PARTS, type CompositionKey } from './composition';
import { contextBreakdown, type ContextBreakdown, type MessageTokens, type SectionTokens } from './contextBreakdown';
import type { DashboardInput } from './dashboardInput';
import { itemId, toolNameOf, type ItemKind } from './itemIds';

export type ItemAction = 'open' | 'pin' | 'unpin' | 'drop' | 'offload';

export interface ContextItem {
  readonly id: string;
  readonly kind: ItemKind;
  /** What it is, e.g. "Assistant message 12", "read_file result", "Checkpoint 2 · old · Messages 1–40". */
  readonly label: string;
  /** Its start, on one line. */
  readonly preview: string;
  readonly tokens: number;
  readonly pinned: boolean;
  /** A tool result kept as an offload preview. */
  readonly offloaded: boolean;
  readonly actions: readonly ItemAction[];
}

export interface ItemList {
  /** How many items the context holds. */
  readonly total: number;
  /** The largest `limit` of them, largest first. */
  readonly items: readonly ContextItem[];
}

/** Characters of an item's start shown beside it. */
const PREVIEW_CHARS = 140;

/**
 * An item before its text is built (the text is built only for the items listed): what it is, its
 * tokens, and its place in the context, which orders items of the same size.
 */
type Candidate = { readonly tokens: number; readonly order: number } & (
  | { readonly kind: 'section'; readonly section: SectionTokens }
  | { readonly kind: 'pinned'; readonly entry: PinnedEntry }
  | { readonly kind: 'message'; readonly m: MessageTokens }
  | { readonly kind: 'result'; readonly m: MessageTokens; readonly block: ToolResultBlock }
);

/** The largest `limit` items of the context, largest first. */
export function contextItems(input: DashboardInput, limit: number, breakdown: ContextBreakdown = contextBreakdown(input)): ItemList {
  const { state } = input;
  const pins = state.ledger.pinned ?? [];
  const candidates: Candidate[] = [];
  let order = 0;
  for (const section of breakdown.sections) {
    const part = section.section.part;
    const at = order++;
    if (part !== 'contextHeading' && part !== 'ledgerHeading' && part !== 'pinned') {
      candidates.push({ kind: 'section', section, tokens: section.tokens, order: at });
    }
  }
  const live = pinnedStillLive(pins, state.active);
  for (const entry of pins) if (!live.has(entry.itemId)) candidates.push({ kind: 'pinned', entry, tokens: entry.tokens, order: order++ });
  for (const m of breakdown.messages) {
    let hasOwn = false;
    for (const block of m.message.blocks) {
      if (block.type !== 'toolResult') hasOwn = true;
      else candidates.push({ kind: 'result', m, block, tokens: m.results.get(block.callId) ?? 0, order: order + 1 });
    }
    if (hasOwn) candidates.push({ kind: 'message', m, tokens: m.total - m.resultTokens, order });
    order += 2;
  }
  const build = builder(state);
  return { total: candidates.length, items: largest(candidates, limit).flatMap((c) => build(c) ?? []) };
}

/** Builds the listed items: their labels, previews and actions. */
function builder(state: SessionState): (c: Candidate) => ContextItem | undefined {
  const pinned = new Set((state.ledger.pinned ?? []).map((p) => p.itemId));
  const offloaded = new Set(state.offloads.map((o) => o.callId));
  const labels = new Map(COMPOSITION_PARTS.map((p) => [p.key, p.label]));
  const total = state.active.length;
  return (c) => {
    switch (c.kind) {
      case 'section': {
        const { section, tokens } = c.section;
        if (section.part === 'checkpoint') {
          const index = state.checkpoints.findIndex((x) => x.id === section.checkpointId);
          const cp = state.checkpoints[index];
          if (!cp) return undefined;
          const label = `Checkpoint ${index + 1} · ${AGE_LABELS[cp.age]} · ${cp.range}`;
          return item(itemId('checkpoint', cp.id), 'checkpoint', label, cp.summary, tokens, { actions: ['open', 'drop'] });
        }
        const part = section.part === 'nextStep' ? 'progress' : section.part;
        const label = `Ledger · ${labels.get(part as CompositionKey) ?? part}`;
        return item(itemId('ledger', section.part), 'ledger', label, section.text, tokens, { actions: ['open'] });
      }
      case 'pinned': {
        const p = c.entry;
        return item(itemId('pinned', p.itemId), 'pinned', `Ledger · pinned ${p.label}`, p.text, p.tokens, {
          pinned: true,
          actions: ['open', 'unpin'],
        });
      }
      case 'message': {
        const message = c.m.message;
        const id = itemId('message', message.id);
        return item(id, 'message', `${ROLE_LABELS[message.role]} message ${c.m.index + 1} of ${total}`, messagePreview(message), c.tokens, {
          pinned: pinned.has(id),
          actions: ['open', ...pinAction(message.role !== 'user', pinned.has(id)), 'drop'],
        });
      }
      case 'result': {
        const { block } = c;
        const id = itemId('toolResult', block.callId);
        const isOffloaded = offloaded.has(block.callId);
        const tool = block.toolName ?? toolNameOf(state.active, block.callId) ?? 'tool';
        const offload: ItemAction[] = isOffloaded || c.tokens < KEEP_SMALL_BELOW_TOKENS ? [] : ['offload'];
        return item(id, 'toolResult', `${tool} ${block.isError ? 'error' : 'result'}`, block.content, c.tokens, {
          pinned: pinned.has(id),
          offloaded: isOffloaded,
          actions: ['open', ...pinAction(true, pinned.has(id)), 'drop', ...offload],
        });
      }
    }
  };
}

/** The `limit` largest candidates, largest first (ties in context order), without sorting them all. */
function largest(candidates: readonly Candidate[], limit: number): Candidate[] {
  const before = (a: Candidate, b: Candidate) => a.tokens > b.tokens || (a.tokens === b.tokens && a.order < b.order);
  const top: Candidate[] = [];
  if (limit <= 0) return top;
  for (const c of candidates) {
    if (top.length === limit && !before(c, top[limit - 1])) continue;
    let at = top.length;
    while (at > 0 && before(c, top[at - 1])) at--;
    top.splice(at, 0, c);
    if (top.length > limit) top.pop();
  }
  return top;
}

function pinAction(pinnable: boolean, isPinned: boolean): ItemAction[] {
  if (isPinned) return ['unpin'];
  return pinnable ? ['pin'] : [];
}

function item(
  id: string,
  kind: ItemKind,
  label: string,
  text: string,
  tokens: number,
  more: { readonly pinned?: boolean; readonly offloaded?: boolean; readonly actions: readonly ItemAction[] },
): ContextItem {
  return {
    id,
    kind,
    label,
    preview: shortenEnd(oneLine(text.slice(0, PREVIEW_CHARS * 4)), PREVIEW_CHARS),
    tokens,
    pinned: more.pinned ?? false,
    offloaded: more.offloaded ?? false,
    actions: more.actions,
  };
}

const ROLE_LABELS: Readonly<Record<Message['role'], string>> = { user: 'Your', assistant: 'Assistant', system: 'System', tool: 'Tool' };

function messagePreview(m: Message): string {
  const text = m.blocks.flatMap((b) => (b.type === 'text' && b.text.trim() ? [b.text] : [])).join(' ');
  if (text) return text;
  const calls = m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.name] : []));
  return calls.length > 0 ? `calls ${calls.join(', ')}` : '';
}
