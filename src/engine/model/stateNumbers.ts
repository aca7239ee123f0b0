/**
 * The ranges a number read back from a state file must be in. JSON carries any double (1e308, and
 * 1e309 comes back as Infinity), and a figure far outside what a session can reach turns every sum
 * built on it into nonsense: a room of 1e308 tokens, a time past the calendar. A state holding one is
 * refused like a field of the wrong type, so it is rebuilt (or the journal lines that wrote it are
 * left out) and the reason is said, never used as it is.
 */

/** Any figure of a session (a score, a position, a difference of tokens): finite, and no larger than 2^53, which no session reaches. */
export const isStateNumber = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER;

/** An amount (tokens, a room, a count): a state figure that is never below zero. */
export const isAmount = (v: unknown): v is number => isStateNumber(v) && v >= 0;

/** The last moment a JavaScript `Date` holds, in milliseconds since 1970. */
export const LAST_TIME_MS = 8.64e15;

/** A time in milliseconds since 1970, up to the last date a `Date` holds. */
export const isTime = (v: unknown): v is number => isAmount(v) && v <= LAST_TIME_MS;

/** A share, from 0 to 1. */
export const isShare = (v: unknown): v is number => isStateNumber(v) && v <= 1 && v >= 0;
