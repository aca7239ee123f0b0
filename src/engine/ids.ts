/** Ids for what a session creates (messages, goals, decisions, checkpoints): unique within a session, sortable by creation. */

/** Random characters after the time: enough that two ids made in one millisecond never meet. */
const RANDOM_CHARS = 8;

/** `<prefix>-<time in base 36>-<random>`. */
export function newId(prefix: string, now: number): string {
  return `${prefix}-${now.toString(36)}-${randomChars(RANDOM_CHARS)}`;
}

/** `count` random lower-case letters and digits. */
export function randomChars(count: number): string {
  let random = '';
  while (random.length < count) random += Math.random().toString(36).slice(2);
  return random.slice(0, count);
}

/** An id for a message the host creates. */
export function newMessageId(prefix: string, now: number): string {
  return newId(prefix, now);
}
