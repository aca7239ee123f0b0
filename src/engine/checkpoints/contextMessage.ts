/**
 * The message ctx puts first in every request once there is something to keep: the ledger
 * (never summarized), the checkpoints oldest first, and whatever the drift check restored.
 */
import type { LedgerSection } from '../ledger/ledgerSections';
import { textBlock, type Message } from '../types';
import { AGE_LABELS } from './aging';
import type { Checkpoint } from './checkpoint';

/** The id of the context message; it is never archived, since it is rebuilt for every request. */
export const CONTEXT_MESSAGE_ID = 'ctx-context';

export interface ContextParts {
  readonly ledgerText: string;
  /** The ledger's sections (joined by blank lines they are `ledgerText`); without them the ledger is one section. */
  readonly ledgerSections?: readonly LedgerSection[];
  readonly checkpoints: readonly Checkpoint[];
  /** Sections the drift check restored. */
  readonly restored: string;
}

/** What a section of the context message is: a part of the ledger, the heading, a checkpoint or what the drift check restored. */
export type ContextPart = LedgerSection['part'] | 'contextHeading' | 'checkpoint' | 'restored';

/** One section of the context message, with the part it is (and the checkpoint, for a checkpoint's section). */
export interface ContextSection {
  readonly part: ContextPart;
  readonly text: string;
  readonly checkpointId?: string;
}

/** Sections of the context message are joined by a blank line. */
const SECTION_SEPARATOR = '\n\n';

/** The context message's sections in order; none when there is nothing to say. */
export function renderContextSections(parts: ContextParts): ContextSection[] {
  const sections: ContextSection[] = [];
  if (parts.checkpoints.length > 0) {
    sections.push({
      part: 'contextHeading',
      text:
        '# Context kept by ctx' +
        SECTION_SEPARATOR +
        'The earlier part of this conversation was summarized to fit the context window. The ledger is kept verbatim; ' +
        'the checkpoints summarize older work, oldest first. The full originals are archived: search them with the `ctx_recover` tool.',
    });
  }
  if (parts.ledgerText) sections.push(...(parts.ledgerSections ?? [{ part: 'ledgerHeading' as const, text: parts.ledgerText }]));
  parts.checkpoints.forEach((c, i) => {
    sections.push({
      part: 'checkpoint',
      checkpointId: c.id,
      text: `## Checkpoint ${i + 1} · ${AGE_LABELS[c.age]} · ${c.range}${SECTION_SEPARATOR}${c.summary.trim()}`,
    });
  });
  if (parts.restored) sections.push({ part: 'restored', text: parts.restored });
  return sections;
}

/** The context message's text, empty when there is nothing to say. */
export function renderContextText(parts: ContextParts): string {
  return joinSections(renderContextSections(parts));
}

/** The text of sections as the context message holds them. */
export function joinSections(sections: readonly ContextSection[]): string {
  return sections.map((s) => s.text).join(SECTION_SEPARATOR);
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
