/**
 * The archived originals of a checkpoint's span, each offloaded result as its reference (the file
 * and the start of the output): what a summary is written from. The merged checkpoint's span is
 * most of the session, only ever grows at its end and is read at every compression, so the span
 * read last is kept while the offloads stay the same: a longer span reads only its new messages.
 */
import type { ArchivedMessages } from '../session/sessionArchive';
import { formatCount } from '../text/numbers';
import type { OffloadRecord } from '../tiers/offload';
import type { Block, Message } from '../types';

/** Characters of an offloaded result kept after its reference. */
const REFERENCE_PREVIEW_CHARS = 1500;

export class SpanOriginals {
  /** One copy per message and offloads, so what is remembered per message (facts, records) holds for it. */
  private readonly referencedCopies = new WeakMap<Message, { files: string; message: Message }>();
  private offloadIndex: { offloads: readonly OffloadRecord[]; byCallId: ReadonlyMap<string, OffloadRecord> } | undefined;
  /** The span read last, when all its messages were in the archive. */
  private last: { ids: readonly string[]; offloads: readonly OffloadRecord[]; messages: readonly Message[] } | undefined;

  /** The originals of these ids in their order; an id the archive does not hold is left out. */
  read(ids: readonly string[], archived: ArchivedMessages, offloads: readonly OffloadRecord[]): Message[] {
    const offloaded = this.indexOf(offloads);
    const last = this.last;
    const known = last !== undefined && last.offloads === offloads && startsWith(ids, last.ids) ? last.messages : [];
    const messages = known.slice();
    for (let i = known.length; i < ids.length; i++) {
      const m = archived.byId(ids[i]);
      if (m) messages.push(this.referenced(m, offloaded));
    }
    // Archived later, a missing message would be found then: only a whole span is kept.
    if (messages.length === ids.length) this.last = { ids, offloads, messages };
    return messages;
  }

  private indexOf(offloads: readonly OffloadRecord[]): ReadonlyMap<string, OffloadRecord> {
    if (this.offloadIndex?.offloads !== offloads) this.offloadIndex = { offloads, byCallId: new Map(offloads.map((o) => [o.callId, o])) };
    return this.offloadIndex.byCallId;
  }

  private referenced(m: Message, offloaded: ReadonlyMap<string, OffloadRecord>): Message {
    const isOffloaded = (b: Block) => b.type === 'toolResult' && offloaded.has(b.callId);
    if (!m.blocks.some(isOffloaded)) return m;
    const files = m.blocks
      .filter(isOffloaded)
      .map((b) => (b.type === 'toolResult' ? offloaded.get(b.callId)?.file : ''))
      .join('\n');
    const known = this.referencedCopies.get(m);
    if (known?.files === files) return known.message;
    const message = {
      ...m,
      blocks: m.blocks.map((b) => {
        const o = b.type === 'toolResult' ? offloaded.get(b.callId) : undefined;
        return o && b.type === 'toolResult'
          ? {
              ...b,
              content: `[${o.toolName} result of ${formatCount(o.tokens)} tokens, offloaded to ${o.file}]\n${b.content.slice(0, REFERENCE_PREVIEW_CHARS)}`,
            }
          : b;
      }),
    };
    this.referencedCopies.set(m, { files, message });
    return message;
  }
}

function startsWith(ids: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length === 0 || prefix.length > ids.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  return true;
}
