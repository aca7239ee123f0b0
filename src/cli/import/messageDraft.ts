/**
 * Messages while an importer still builds them: Claude Code spreads one reply over several
 * records, so blocks are appended after the message was placed in the conversation.
 */
import { type Block, injectedTextBlock, requestedTextBlock, type Role } from '../../engine/host/messages';

/** A message whose blocks can still grow. */
export interface MessageDraft {
  readonly id: string;
  readonly role: Role;
  /** Appendable until the import finishes; frozen into a `Message` then. */
  readonly blocks: Block[];
  readonly at?: number;
  /** 1-based source line, for warnings about this message. */
  readonly line?: number;
}

/** One message a source record becomes; a record can become several (a reply and its results). */
export interface DraftPart {
  readonly role: Role;
  readonly blocks: readonly Block[];
}

/** The part as the host's text sent as the user's request (see `TextBlock.requested`). */
export function requestedPart(part: DraftPart): DraftPart {
  return withAuthoredTextAs(part, requestedTextBlock);
}

/** The part with every text block injected, for a message nobody in the session wrote (results are data already). */
export function injectedPart(part: DraftPart): DraftPart {
  return withAuthoredTextAs(part, injectedTextBlock);
}

/** The part with each text block not injected yet made again by `block`. */
function withAuthoredTextAs(part: DraftPart, block: (text: string) => Block): DraftPart {
  return { role: part.role, blocks: part.blocks.map((b) => (b.type === 'text' && b.injected !== true ? block(b.text) : b)) };
}
