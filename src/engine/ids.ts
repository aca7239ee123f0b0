/** Ids for messages the host creates: unique within a session, sortable by creation. */

let sequence = 0;

export function newMessageId(prefix: string, now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${prefix}-${now.toString(36)}-${sequence.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}
