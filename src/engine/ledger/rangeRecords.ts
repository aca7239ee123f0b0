/**
 * Tool records of ranges of the archive, built incrementally. Aging re-summarizes the oldest,
 * merged checkpoint from its originals every time another checkpoint merges into it, and its range
 * only ever grows at the end: the record of the longer range is the record of the shorter one plus
 * the new messages, so each merge costs the new messages, not the whole range, and the shorter
 * range's messages need not be kept for it: only its calls still waiting for their result.
 */
import { EMPTY_LEDGER, type ToolRecord } from '../model/ledgerTypes';
import { recordToolActivity } from './toolRecord';
import type { Message, ToolCallBlock } from '../types';

/** The tool record of a range of messages, and what the record of a longer range goes on from. */
export class RangeRecord {
  private constructor(
    /** What the tools of the range did. */
    readonly record: ToolRecord,
    /** Messages in the range. */
    readonly length: number,
    /**
     * The calls of the range that no result in it answers yet, by id, the last of an id: only those can be
     * answered by a result after it (a call answered already is recorded, and its id with it), so a long
     * range keeps a handful of calls, not all of them.
     */
    private readonly unanswered: ReadonlyMap<string, ToolCallBlock>,
  ) {}

  /** The record of no messages: where a range's record starts. */
  static start(): RangeRecord {
    return new RangeRecord(EMPTY_LEDGER.tools, 0, new Map());
  }

  /** The record of this range with `added` after it: only `added` is read. */
  extended(added: readonly Message[]): RangeRecord {
    if (added.length === 0) return this;
    const record = recordToolActivity(added, this.record, (id) => this.unanswered.get(id));
    const unanswered = new Map(this.unanswered);
    for (const m of added) {
      for (const b of m.blocks) {
        if (b.type === 'toolCall') unanswered.set(b.id, b);
        else if (b.type === 'toolResult') unanswered.delete(b.callId);
      }
    }
    return new RangeRecord(record, this.length + added.length, unanswered);
  }
}
