/**
 * Source timestamps to milliseconds since the epoch.
 */

/** The last moment a JavaScript Date can hold: 8.64e15 ms after 1970 (the year 275760). */
export const MAX_TIME_MS = 8.64e15;

/** True for a time a Date can hold. */
export function isDateTime(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS;
}

/** Epoch numbers below this are seconds, not milliseconds (1e11 ms is 1973; 1e11 s is year 5138). */
const SECONDS_BELOW = 1e11;

/** An ISO time with no `Z` or `±hh:mm` at its end: OpenHands writes these, meaning UTC. */
const ISO_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Milliseconds since the epoch, or undefined when the value is no time. Zone-less ISO strings are
 * read as UTC, not local time, so an import gives the same `at` on every machine.
 */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < SECONDS_BELOW ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value !== 'string' || value === '') return undefined;
  const iso = ISO_WITHOUT_ZONE.test(value) ? `${value}Z` : value;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}
