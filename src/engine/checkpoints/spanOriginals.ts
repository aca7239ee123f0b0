/**
 * The archived originals of a checkpoint's span, each offloaded result as its reference (the file
 * and the start of the output): what a summary is written from. The merged checkpoint's span is
 * most of the session, only ever grows at its end and is read at every compression, so the spans
 * read last are kept while no result in them is offloaded: a longer span reads only its new messages.
 */
import { appended, isAppendedTo, startsWith } from '../appendedList';
import type { ArchivedMessages } from '../model/archivedMessages';
import { formatCount } from '../text/numbers';
import type { OffloadRecord } from '../model/offloadRecord';
import type { Block, Message } from '../types';

/**
 * Characters of an offloaded result kept after its reference: its start, and its end, where a
 * runner's verdict or a command's last error stands.
 */
const REFERENCE_HEAD_CHARS = 1000;
const REFERENCE_TAIL_CHARS = 500;

/** Spans kept: a compression reads about four (the new checkpoint's, two aged ones, the merged one). */
const REMEMBERED_SPANS = 8;

interface ReadSpan {
  readonly ids: readonly string[];
  /** The offloads it was read with. */
  readonly offloads: readonly OffloadRecord[];
  readonly messages: readonly Message[];
  /**
   * Call ids of the results in it, shared with the longer spans grown from it: a few more ids than
   * its own only make it read again when one of those is offloaded.
   */
  readonly results: Set<string>;
}

export class SpanOriginals {
  /** One copy per message and offloads, so what is remembered per message (facts, records) holds for it. */
  private readonly referencedCopies = new WeakMap<Message, { files: string; message: Message }>();
  private offloadIndex: { offloads: readonly OffloadRecord[]; byCallId: ReadonlyMap<string, OffloadRecord> } | undefined;
  /** The spans read last whose messages were all in the archive, the newest first. */
  private spans: readonly ReadSpan[] = [];

  /** The originals of these ids in their order; an id the archive does not hold is left out. */
  async read(ids: readonly string[], archived: ArchivedMessages, offloads: readonly OffloadRecord[]): Promise<readonly Message[]> {
    const offloaded = this.indexOf(offloads);
    let known: ReadSpan | undefined;
    for (const span of this.spans) {
      if (span.ids.length > (known?.ids.length ?? 0) && startsWith(ids, span.ids) && readsTheSame(span, offloads)) known = span;
    }
    const results = known ? known.results : new Set<string>();
    const added: Message[] = [];
    for (const m of await archived.byIds(ids.slice(known?.messages.length ?? 0))) {
      if (!m) continue;
      added.push(this.referenced(m, offloaded));
      for (const b of m.blocks) if (b.type === 'toolResult') results.add(b.callId);
    }
    // Appended, so what is read from the longer span (its conversation facts) goes on from the shorter one's.
    const messages = known ? appended(known.messages, added) : added;
    // Archived later, a missing message would be found then: only a whole span is kept.
    if (messages.length === ids.length) {
      // A span read again takes the place it had: repeats must not push the merged span out.
      const others = this.spans.filter((s) => s.messages !== messages);
      this.spans = [{ ids, offloads, messages, results }, ...others].slice(0, REMEMBERED_SPANS);
    }
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
              content: `[${o.toolName} result of ${formatCount(o.tokens)} tokens, offloaded to ${o.file}]\n${headAndTail(b.content)}`,
            }
          : b;
      }),
    };
    this.referencedCopies.set(m, { files, message });
    return message;
  }
}

/** True when the span reads as it did: the offloads are the same, or those added since offload none of its results. */
function readsTheSame(span: ReadSpan, offloads: readonly OffloadRecord[]): boolean {
  if (span.offloads === offloads) return true;
  if (!isAppendedTo(offloads, span.offloads)) return false;
  for (let i = span.offloads.length; i < offloads.length; i++) if (span.results.has(offloads[i].callId)) return false;
  return true;
}

/** The start and the end of an offloaded result, or all of it when it is short. */
function headAndTail(content: string): string {
  if (content.length <= REFERENCE_HEAD_CHARS + REFERENCE_TAIL_CHARS) return content;
  const tailStart = content.indexOf('\n', content.length - REFERENCE_TAIL_CHARS);
  return `${content.slice(0, REFERENCE_HEAD_CHARS)}\n…\n${content.slice(tailStart < 0 ? content.length - REFERENCE_TAIL_CHARS : tailStart + 1)}`;
}
