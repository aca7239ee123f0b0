/** The full text of a context item, to open it: a message with its calls, a result, a checkpoint's summary, a ledger part, a pinned copy. */
import { AGE_LABELS } from '../checkpoints/aging';
import { pinnedMessageText } from '../ledger/pinned';
import type { RequestView } from '../model/requestView';
import type { SessionState } from '../model/sessionState';
import { findResult, parseItemId } from './itemIds';

/** The item's title and text; undefined when the context no longer holds it. */
export function itemText(
  state: SessionState,
  view: RequestView,
  id: string,
): { readonly title: string; readonly text: string } | undefined {
  const parsed = parseItemId(id);
  if (!parsed) return undefined;
  const { kind, key } = parsed;
  switch (kind) {
    case 'message': {
      const m = state.active.find((x) => x.id === key);
      if (!m) return undefined;
      const results = m.blocks.flatMap((b) => (b.type === 'toolResult' ? [`[tool result ${b.callId}]\n${b.content}`] : []));
      return { title: `${m.role} message`, text: [pinnedMessageText(m), ...results].filter((t) => t).join('\n\n') };
    }
    case 'toolResult': {
      const found = findResult(state.active, key);
      return found ? { title: `${found.block.toolName ?? 'tool'} result`, text: found.block.content } : undefined;
    }
    case 'checkpoint': {
      const index = state.checkpoints.findIndex((c) => c.id === key);
      const c = state.checkpoints[index];
      return c ? { title: `Checkpoint ${index + 1} · ${AGE_LABELS[c.age]} · ${c.range}`, text: c.summary } : undefined;
    }
    case 'ledger': {
      const sections = view.sections.filter((s) => s.part === key);
      return sections.length > 0 ? { title: `Ledger · ${key}`, text: sections.map((s) => s.text).join('\n\n') } : undefined;
    }
    case 'pinned': {
      const p = (state.ledger.pinned ?? []).find((e) => e.itemId === key);
      return p ? { title: `Pinned ${p.label}`, text: p.text } : undefined;
    }
  }
}
