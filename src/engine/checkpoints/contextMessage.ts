/**
 * The message ctx puts first in every request once there is something to keep: the ledger
 * (never summarized), the checkpoints oldest first, and whatever the drift check restored.
 */
import { textBlock, type Message } from '../types';
import { AGE_LABELS } from './aging';
import type { Checkpoint } from './checkpoint';

/** The id of the context message; it is never archived, since it is rebuilt for every request. */
export const CONTEXT_MESSAGE_ID = 'ctx-context';

export interface ContextParts {
  readonly ledgerText: string;
  readonly checkpoints: readonly Checkpoint[];
  /** Sections the drift check restored. */
  readonly restored: string;
}

/** The context message's text, empty when there is nothing to say. */
export function renderContextText(parts: ContextParts): string {
  const sections: string[] = [];
  if (parts.checkpoints.length > 0) {
    sections.push(
      '# Context kept by ctx',
      'The earlier part of this conversation was summarized to fit the context window. The ledger is kept verbatim; ' +
        'the checkpoints summarize older work, oldest first. The full originals are archived: search them with the `ctx_recover` tool.',
    );
  }
  if (parts.ledgerText) sections.push(parts.ledgerText);
  parts.checkpoints.forEach((c, i) => {
    sections.push(`## Checkpoint ${i + 1} · ${AGE_LABELS[c.age]} · ${c.range}\n\n${c.summary.trim()}`);
  });
  if (parts.restored) sections.push(parts.restored);
  return sections.join('\n\n');
}

/** The context message for a text; undefined for an empty text. */
export function contextMessage(text: string): Message | undefined {
  return text ? { id: CONTEXT_MESSAGE_ID, role: 'user', blocks: [textBlock(text)] } : undefined;
}
