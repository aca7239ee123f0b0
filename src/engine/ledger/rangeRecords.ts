/**
 * Tool records of ranges of the archive, built incrementally. Aging re-summarizes the oldest,
 * merged checkpoint from its originals every time another checkpoint merges into it, and its range
 * only ever grows at the end: the record of the longer range is the remembered record of the
 * shorter one plus the new messages, so each merge costs the new messages, not the whole range.
 */
import { EMPTY_LEDGER, type ToolRecord } from '../model/ledgerTypes';
import { recordToolActivity } from './toolRecord';
import { startsWith } from '../appendedList';
import type { Message, ToolCallBlock } from '../types';

/** Ranges remembered: one Tier 3 summarizes about four (the new checkpoint, two aged ones, the merged one), each twice. */
const REMEMBERED_RANGES = 8;

/**
 * The tool calls of a run of messages and of every range that starts it, by id, each with its
 * position: ranges that grow at the end share one log, and a range sees the calls before its end.
 */
class CallLog {
  private readonly calls = new Map<string, { readonly at: number; readonly block: ToolCallBlock }[]>();
  /** Messages taken in: the longest range this log stands for. */
  length = 0;

  takeIn(messages: readonly Message[], from: number): void {
    for (let i = from; i < messages.length; i++) {
      for (const b of messages[i].blocks) {
        if (b.type !== 'toolCall') continue;
        const known = this.calls.get(b.id);
        if (known) known.push({ at: i, block: b });
        else this.calls.set(b.id, [{ at: i, block: b }]);
      }
    }
    this.length = messages.length;
  }

  /** The last call with this id among the first `count` messages. */
  find(id: string, count: number): ToolCallBlock | undefined {
    const known = this.calls.get(id);
    if (!known) return undefined;
    for (let i = known.length - 1; i >= 0; i--) if (known[i].at < count) return known[i].block;
    return undefined;
  }
}

interface RememberedRange {
  /** The range's messages: the archive's own objects, so a prefix is found by identity. */
  readonly messages: readonly Message[];
  readonly record: ToolRecord;
  readonly calls: CallLog;
}

export class RangeRecords {
  private remembered: RememberedRange[] = [];

  /** The tool record of these messages, in order. */
  recordOf(messages: readonly Message[]): ToolRecord {
    // A checkpoint's summary and its file list ask for the same range, one after the other.
    const same = this.remembered.find((r) => r.messages === messages);
    if (same) return same.record;
    const base = this.longestPrefix(messages);
    const from = base?.messages.length ?? 0;
    // A log another range has grown past holds calls this one does not have: it starts its own.
    const shared = base !== undefined && base.calls.length === from;
    const calls = shared ? base.calls : new CallLog();
    calls.takeIn(messages, shared ? from : 0);
    const count = messages.length;
    const record = recordToolActivity(messages.slice(from), base?.record ?? EMPTY_LEDGER.tools, (id) => calls.find(id, count));
    this.remembered = [{ messages, record, calls }, ...this.remembered].slice(0, REMEMBERED_RANGES);
    return record;
  }

  private longestPrefix(messages: readonly Message[]): RememberedRange | undefined {
    let best: RememberedRange | undefined;
    for (const r of this.remembered) {
      if (r.messages.length > messages.length || (best && r.messages.length <= best.messages.length)) continue;
      if (startsWith(messages, r.messages)) best = r;
    }
    return best;
  }
}
