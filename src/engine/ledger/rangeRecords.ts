/**
 * Tool records of ranges of the archive, built incrementally. Aging re-summarizes the oldest,
 * merged checkpoint from its originals every time another checkpoint merges into it, and its range
 * only ever grows at the end: the record of the longer range is the remembered record of the
 * shorter one plus the new messages, so each merge costs the new messages, not the whole range.
 */
import { EMPTY_LEDGER, type ToolRecord } from './ledgerTypes';
import { recordToolActivity } from './toolRecord';
import type { Message, ToolCallBlock } from '../types';

/** Ranges remembered: one Tier 3 summarizes about four (the new checkpoint, two aged ones, the merged one), each twice. */
const REMEMBERED_RANGES = 8;

interface RememberedRange {
  /** The range's messages: the archive's own objects, so a prefix is found by identity. */
  readonly messages: readonly Message[];
  readonly record: ToolRecord;
  readonly calls: ReadonlyMap<string, ToolCallBlock>;
}

export class RangeRecords {
  private remembered: RememberedRange[] = [];

  /** The tool record of these messages, in order. */
  recordOf(messages: readonly Message[]): ToolRecord {
    // A checkpoint's summary and its file list ask for the same range, one after the other.
    const same = this.remembered.find((r) => r.messages === messages);
    if (same) return same.record;
    const base = this.longestPrefix(messages);
    const added = messages.slice(base?.messages.length ?? 0);
    const calls = new Map(base?.calls ?? []);
    for (const m of added) for (const b of m.blocks) if (b.type === 'toolCall') calls.set(b.id, b);
    const record = recordToolActivity(added, base?.record ?? EMPTY_LEDGER.tools, (id) => calls.get(id));
    this.remembered = [{ messages, record, calls }, ...this.remembered].slice(0, REMEMBERED_RANGES);
    return record;
  }

  private longestPrefix(messages: readonly Message[]): RememberedRange | undefined {
    let best: RememberedRange | undefined;
    for (const r of this.remembered) {
      if (r.messages.length > messages.length || (best && r.messages.length <= best.messages.length)) continue;
      if (r.messages.every((m, i) => messages[i] === m)) best = r;
    }
    return best;
  }
}
