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
import type { Message } from '../types';
import { COMPOSITION_PARTS } from './composition';
import { contextBreakdown, type ContextBreakdown } from './contextBreakdown';
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

/** An item before its text is built: the text is built only for the items listed. */
interface Candidate {
  readonly tokens: number;
  /** Order among items of the same size: their place in the context. */
  readonly order: number;
  build(): ContextItem;
}

/** The largest `limit` items of the context, largest first. */
export function contextItems(input: DashboardInput, limit: number, breakdown: ContextBreakdown = contextBreakdown(input)): ItemList {
  const { state } = input;
  const pins = state.ledger.pinned ?? [];
  const pinned = new Set(pins.map((p) => p.itemId));
  const offloaded = new Set(state.offloads.map((o) => o.callId));
  const candidates: Candidate[] = [];
  let order = 0;
  const labels = new Map(COMPOSITION_PARTS.map((p) => [p.key, p.label]));
  const checkpointIndex = new Map(state.checkpoints.map((c, i) => [c.id, i]));

  for (const { section, tokens } of breakdown.sections) {
    const at = order++;
    if (section.part === 'contextHeading' || section.part === 'ledgerHeading') continue;
    if (section.part === 'checkpoint') {
      const index = checkpointIndex.get(section.checkpointId ?? '');
      const c = index === undefined ? undefined : state.checkpoints[index];
      if (!c || index === undefined) continue;
      candidates.push({
        tokens,
        order: at,
        build: () =>
          item(itemId('checkpoint', c.id), 'checkpoint', `Checkpoint ${index + 1} · ${AGE_LABELS[c.age]} · ${c.range}`, c.summary, tokens, {
            actions: ['open', 'drop'],
          }),
      });
      continue;
    }
    const part = section.part === 'nextStep' ? 'progress' : section.part;
    if (part === 'pinned') continue;
    candidates.push({
      tokens,
      order: at,
      build: () =>
        item(itemId('ledger', section.part), 'ledger', `Ledger · ${labels.get(part) ?? part}`, section.text, tokens, { actions: ['open'] }),
    });
  }

  const live = pinnedStillLive(pins, state.active);
  for (const p of pins) {
    if (live.has(p.itemId)) continue;
    candidates.push({
      tokens: p.tokens,
      order: order++,
      build: () =>
        item(itemId('pinned', p.itemId), 'pinned', `Ledger · pinned ${p.label}`, p.text, p.tokens, {
          pinned: true,
          actions: ['open', 'unpin'],
        }),
    });
  }

  const total = state.active.length;
  for (const m of breakdown.messages) {
    const own = m.total - [...m.results.values()].reduce((n, t) => n + t, 0);
    const message = m.message;
    const id = itemId('message', message.id);
    if (message.blocks.some((b) => b.type !== 'toolResult')) {
      candidates.push({
        tokens: own,
        order: order++,
        build: () =>
          item(id, 'message', `${roleLabel(message)} message ${m.index + 1} of ${total}`, messagePreview(message), own, {
            pinned: pinned.has(id),
            actions: ['open', ...pinAction(message.role !== 'user', pinned.has(id)), 'drop'],
          }),
      });
    }
    for (const block of message.blocks) {
      if (block.type !== 'toolResult') continue;
      const tokens = m.results.get(block.callId) ?? 0;
      const rid = itemId('toolResult', block.callId);
      const isOffloaded = offloaded.has(block.callId);
      candidates.push({
        tokens,
        order: order++,
        build: () =>
          item(
            rid,
            'toolResult',
            `${block.toolName ?? toolNameOf(state.active, block.callId) ?? 'tool'} ${block.isError ? 'error' : 'result'}`,
            block.content,
            tokens,
            {
              pinned: pinned.has(rid),
              offloaded: isOffloaded,
              actions: [
                'open',
                ...pinAction(true, pinned.has(rid)),
                'drop',
                ...(isOffloaded || tokens < KEEP_SMALL_BELOW_TOKENS ? [] : (['offload'] as const)),
              ],
            },
          ),
      });
    }
  }
  candidates.sort((a, b) => b.tokens - a.tokens || a.order - b.order);
  return { total: candidates.length, items: candidates.slice(0, Math.max(0, limit)).map((c) => c.build()) };
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

function roleLabel(m: Message): string {
  return ROLE_LABELS[m.role];
}

function messagePreview(m: Message): string {
  const text = m.blocks.flatMap((b) => (b.type === 'text' && b.text.trim() ? [b.text] : [])).join(' ');
  if (text) return text;
  const calls = m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.name] : []));
  return calls.length > 0 ? `calls ${calls.join(', ')}` : '';
}
