/**
 * The session's timeline: one point per request (the tokens before and after the steps, the level,
 * and where its events end in the history), so the context's course and every compression on it
 * can be drawn. It is kept compact: past `MAX_TIMELINE_POINTS`, the oldest half is merged two
 * points into one, each merged point saying how many requests it stands for.
 */
import { isStateNumber } from './stateNumbers';
import { LEVELS, type Level } from '../levels';
import { isRecord } from '../schema';

export interface TimelinePoint {
  /** When the request was prepared. */
  readonly at: number;
  /** Tokens before the steps acted (the request's highest point). */
  readonly before: number;
  /** Tokens sent. */
  readonly after: number;
  /** The level of what was sent. */
  readonly level: Level;
  readonly budget: number;
  /** The history's length once this request's events were recorded: events from the previous point's end up to here are this request's. */
  readonly historyEnd: number;
  /** Requests this point stands for, more than one once old points were merged. @default 1 */
  readonly requests?: number;
  /** Tokens of the request sent that the previous one sent the same (a prompt cache reads them); absent before it was sent. */
  readonly reused?: number;
}

/**
 * Points kept before the oldest are merged. Five hundred points draw a long session's course at
 * any width a panel has, and keep the state file small (about 50 KB at most).
 */
export const MAX_TIMELINE_POINTS = 500;

/** The timeline with a point added, the oldest half merged in pairs when it grew past the limit. */
export function appendTimelinePoint(timeline: readonly TimelinePoint[], point: TimelinePoint): TimelinePoint[] {
  const next = [...timeline, point];
  if (next.length <= MAX_TIMELINE_POINTS) return next;
  const half = Math.floor(next.length / 2);
  const merged: TimelinePoint[] = [];
  for (let i = 0; i + 1 < half; i += 2) merged.push(mergePoints(next[i], next[i + 1]));
  const rest = half % 2 === 1 ? next.slice(half - 1) : next.slice(half);
  return [...merged, ...rest];
}

/** Two neighbouring points as one: the higher start, the later end, the worse level. */
function mergePoints(a: TimelinePoint, b: TimelinePoint): TimelinePoint {
  return {
    at: a.at,
    before: Math.max(a.before, b.before),
    after: b.after,
    level: LEVELS.indexOf(a.level) > LEVELS.indexOf(b.level) ? a.level : b.level,
    budget: b.budget,
    historyEnd: b.historyEnd,
    requests: (a.requests ?? 1) + (b.requests ?? 1),
    ...(b.reused !== undefined ? { reused: b.reused } : {}),
  };
}

const isNumber = isStateNumber;

/** True for a well-formed timeline point read back from storage. */
export function isTimelinePoint(v: unknown): v is TimelinePoint {
  return (
    isRecord(v) &&
    isNumber(v.at) &&
    isNumber(v.before) &&
    isNumber(v.after) &&
    typeof v.level === 'string' &&
    (LEVELS as readonly string[]).includes(v.level) &&
    isNumber(v.budget) &&
    isNumber(v.historyEnd) &&
    (v.requests === undefined || isNumber(v.requests)) &&
    (v.reused === undefined || isNumber(v.reused))
  );
}
