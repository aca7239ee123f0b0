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

/**
 * The text cut before each Markdown heading that follows a blank line. Joined with newlines (as
 * messages' text blocks are) the pieces give the text back exactly: each piece after the first
 * starts with the second newline of the blank line.
 */
export function splitAtHeadings(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(/\n\n(?=#{1,3} )/g)) {
    pieces.push(text.slice(start, match.index));
    start = match.index + 1;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * The context message for a text (undefined for an empty text): one text block per section, and
 * the same block object for a section that did not change, so measuring counts only what changed.
 */
export function contextMessage(text: string, previous?: Message): Message | undefined {
  if (!text) return undefined;
  const known = new Map((previous?.blocks ?? []).flatMap((b) => (b.type === 'text' ? [[b.text, b] as const] : [])));
  return { id: CONTEXT_MESSAGE_ID, role: 'user', blocks: splitAtHeadings(text).map((piece) => known.get(piece) ?? textBlock(piece)) };
}
