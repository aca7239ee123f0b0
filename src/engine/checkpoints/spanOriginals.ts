/**
 * The archived originals of a checkpoint's span, each offloaded result as its reference (the file
 * and the start of the output): what a summary is written from. The merged checkpoint's span is
 * most of the session, only ever grows at its end and is summarized at every compression, so what
 * the summary reads of a span (what its conversation said, what its tools did) is kept by its ids
 * while no result in it is offloaded, not its messages: a longer span reads only its new messages,
 * and the session's history stays on disk.
 */
import { isAppendedTo } from '../appendedList';
import { RangeRecord } from '../ledger/rangeRecords';
import type { ArchivedMessages } from '../model/archivedMessages';
import type { ToolRecord } from '../model/ledgerTypes';
import { conversationFactsOf, NOTHING_SAID, saidAfter, type ConversationFacts, type SpanSaid } from '../summary/conversationFacts';
import { offloadReferenceLine } from '../text/offloadReference';
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

/** A span's originals: what was read of them, and the messages themselves when a reader needs them all. */
export interface OriginalSpan {
  readonly ids: readonly string[];
  /** What its user and assistant messages say. */
  readonly conversation: ConversationFacts;
  /** What its tools did. */
  readonly record: ToolRecord;
  /**
   * Its messages in order (an id the archive does not hold left out), read from the archive unless this read took them
   * all; from its `from`-th id on when `from` is given.
   */
  messages(from?: number): Promise<readonly Message[]>;
}

interface ReadSpan {
  readonly ids: readonly string[];
  /** The offloads it was read with. */
  readonly offloads: readonly OffloadRecord[];
  readonly said: SpanSaid;
  readonly record: RangeRecord;
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
  async read(ids: readonly string[], archived: ArchivedMessages, offloads: readonly OffloadRecord[]): Promise<OriginalSpan> {
    let known: ReadSpan | undefined;
    for (const span of this.spans) {
      if (span.ids.length > (known?.ids.length ?? 0) && startsWith(ids, span.ids) && readsTheSame(span, offloads)) known = span;
    }
    const results = known ? known.results : new Set<string>();
    const added = await this.messagesOf(ids.slice(known?.ids.length ?? 0), archived, offloads);
    for (const m of added) for (const b of m.blocks) if (b.type === 'toolResult') results.add(b.callId);
    const said = saidAfter(known?.said ?? NOTHING_SAID, added);
    const record = (known?.record ?? RangeRecord.start()).extended(added);
    // Archived later, a missing message would be found then: only a whole span is kept.
    if ((known?.ids.length ?? 0) + added.length === ids.length) {
      // A span read again takes the place it had: repeats must not push the merged span out.
      const others = this.spans.filter((s) => s !== known || s.ids.length !== ids.length);
      this.spans = [{ ids, offloads, said, record, results }, ...others].slice(0, REMEMBERED_SPANS);
    }
    return {
      ids,
      conversation: conversationFactsOf(said),
      record: record.record,
      messages: async (from = 0) => (from > 0 || known ? this.messagesOf(ids.slice(from), archived, offloads) : added),
    };
  }

  /** The originals of these ids, offloaded results as their references, without keeping anything of them. */
  async messagesOf(ids: readonly string[], archived: ArchivedMessages, offloads: readonly OffloadRecord[]): Promise<Message[]> {
    const offloaded = this.indexOf(offloads);
    const messages: Message[] = [];
    for (const m of await archived.byIds(ids)) if (m) messages.push(this.referenced(m, offloaded));
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
              content: `${offloadReferenceLine(o.toolName, o.tokens, o.file)}\n${headAndTail(b.content)}`,
            }
          : b;
      }),
    };
    this.referencedCopies.set(m, { files, message });
    return message;
  }
}

/** True when `list` begins with the ids of `prefix`. */
function startsWith(list: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > list.length) return false;
  for (let i = prefix.length - 1; i >= 0; i--) if (list[i] !== prefix[i]) return false;
  return true;
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
