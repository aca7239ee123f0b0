/**
 * Errors waiting for their resolution and their line: reading an error's line (see
 * `errorSummary`) is the costly part of an error, so it is read only for the errors that can be
 * chosen.
 */
import type { Candidate } from './candidate';
import type { ErrorSite, ResolutionIndex } from './errorResolution';

/** What an error that nothing resolved gains: it is what the work still has to deal with. @default 0.1 */
export const UNRESOLVED_BONUS = 0.1;

/** An error found, its line read only if it is among those kept (reading an error's line is the costly part). */
export interface PendingError {
  readonly fact: () => Candidate | undefined;
  readonly score: number;
  readonly site: ErrorSite;
}

/**
 * The errors with their resolution and score. When there are many, the lines of at most
 * `2 × maxFacts` are read: the unresolved ones, newest first, then resolved ones spread evenly
 * over the span, so an early error that was worked around can still be chosen.
 */
export function resolvedErrors(errors: readonly PendingError[], index: ResolutionIndex, maxFacts: number): Candidate[] {
  const resolved = errors.map((e) => {
    const resolution = index.resolve(e.site);
    return { e, resolution, score: resolution.resolved ? e.score : Math.min(0.95, e.score + UNRESOLVED_BONUS) };
  });
  const limit = 2 * maxFacts;
  let read = resolved;
  if (resolved.length > limit) {
    const open = resolved
      .filter((r) => !r.resolution.resolved)
      .reverse()
      .slice(0, maxFacts);
    const closed = resolved.filter((r) => r.resolution.resolved);
    const room = limit - open.length;
    const step = closed.length / Math.max(1, room);
    const spread = closed.length <= room ? closed : Array.from({ length: room }, (_, i) => closed[Math.floor(i * step)]);
    read = [...open, ...spread];
  }
  return read.flatMap(({ e, resolution, score }) => {
    const fact = e.fact();
    return fact ? [{ ...fact, resolution, score }] : [];
  });
}
