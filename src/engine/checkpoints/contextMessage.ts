/**
 * The message ctx puts first in every request once there is something to keep: the ledger
 * (never summarized), the checkpoints oldest first, and whatever the drift check put back.
 */
import type { ContextSection } from '../model/contextSection';
import type { LedgerSection } from '../model/contextSection';
import { textBlock, type Block, type Message } from '../types';
import { AGE_LABELS } from './aging';
import type { Checkpoint } from '../model/checkpoint';
import { CONTEXT_MESSAGE_ID } from '../model/frozenContext';

export interface ContextParts {
  readonly ledgerText: string;
  /** The ledger's sections (joined by blank lines they are `ledgerText`); without them the ledger is one section. */
  readonly ledgerSections?: readonly LedgerSection[];
  readonly checkpoints: readonly Checkpoint[];
  /** Sections the drift check put back. */
  readonly putBack: string;
  /** Earlier lines, in the room the last rebase gave them (see `earlierLines`). */
  readonly earlier?: string;
}

/** Sections of the context message are joined by a blank line. */
const SECTION_SEPARATOR = '\n\n';

/** The context message's sections in order; none when there is nothing to say. */
export function renderContextSections(parts: ContextParts): ContextSection[] {
  const sections: ContextSection[] = [];
  if (parts.checkpoints.length > 0 || parts.earlier) sections.push(CONTEXT_HEADING);
  if (parts.ledgerText) sections.push(...(parts.ledgerSections ?? [{ part: 'ledgerHeading' as const, text: parts.ledgerText }]));
  parts.checkpoints.forEach((c, i) => sections.push(checkpointSection(c, i)));
  if (parts.earlier) sections.push({ part: 'earlier', text: parts.earlier });
  if (parts.putBack) sections.push({ part: 'putBack', text: parts.putBack });
  return sections;
}

const CONTEXT_HEADING: ContextSection = {
  part: 'contextHeading',
  text:
    '# Context kept by ctx' +
    SECTION_SEPARATOR +
    'The earlier part of this conversation was summarized to fit the context window. The ledger is kept verbatim; ' +
    'the checkpoints summarize older work, oldest first. The full originals are archived: search them with the `ctx_recover` tool.',
};

/** A checkpoint's section, the same object while the checkpoint keeps its place: its text is then known to be unchanged. */
function checkpointSection(c: Checkpoint, index: number): ContextSection {
  const known = checkpointSections.get(c);
  if (known?.index === index) return known.section;
  const section: ContextSection = {
    part: 'checkpoint',
    checkpointId: c.id,
    text: `## Checkpoint ${index + 1} · ${AGE_LABELS[c.age]} · ${c.range}${SECTION_SEPARATOR}${c.summary.trim()}`,
  };
  checkpointSections.set(c, { index, section });
  return section;
}

const checkpointSections = new WeakMap<Checkpoint, { readonly index: number; readonly section: ContextSection }>();

/** The context message, and the blocks of its sections after the first by their text: what the next one reuses. */
export interface BuiltContextMessage {
  readonly message: Message;
  readonly laterBlocks: ReadonlyMap<string, Block>;
}

/**
 * The context message for its sections (undefined when there are none): one text block a
 * section, each after the first starting with the second line break of the blank line between
 * them, so the blocks joined with line breaks are the sections joined by blank lines. A section
 * whose text did not change keeps its block object, so measuring counts only what changed, and
 * an unchanged message is the previous one. The message is made without joining and splitting
 * the whole text, which a long session's ledger makes large.
 */
export function contextMessage(sections: readonly ContextSection[], previous?: BuiltContextMessage): BuiltContextMessage | undefined {
  if (sections.length === 0) return undefined;
  const [first, ...later] = sections;
  const previousFirst = previous?.message.blocks[0];
  const blocks: Block[] = [previousFirst?.type === 'text' && previousFirst.text === first.text ? previousFirst : textBlock(first.text)];
  const laterBlocks = new Map<string, Block>();
  for (const s of later) {
    const block = laterBlocks.get(s.text) ?? previous?.laterBlocks.get(s.text) ?? textBlock(`\n${s.text}`);
    laterBlocks.set(s.text, block);
    blocks.push(block);
  }
  const same =
    previous !== undefined && previous.message.blocks.length === blocks.length && blocks.every((b, i) => b === previous.message.blocks[i]);
  return same ? previous : { message: { id: CONTEXT_MESSAGE_ID, role: 'user', blocks }, laterBlocks };
}
