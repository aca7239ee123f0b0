/**
 * The session's course for the dashboard: the tokens before and after the steps of every request
 * (from the timeline the session records), and every compression placed on the request it belongs
 * to, with the tokens it saved. Compressions of one kind in one request are one marker.
 */
import { compressionKindOf } from '../activity/compressionTally';
import { EVENT_KIND_LABELS, type EventKind } from '../model/compressionEvent';
import type { Level } from '../levels';
import type { SessionState } from '../model/sessionState';

export interface TimelinePointView {
  /** 1-based number of the (last) request the point stands for. */
  readonly request: number;
  readonly at: number;
  readonly before: number;
  readonly after: number;
  readonly level: Level;
  readonly budget: number;
  /** Requests it stands for (old points are merged). */
  readonly requests: number;
  /** Tokens of what was sent that the request before sent the same (a prompt cache reads them); absent until it was sent. */
  readonly reused?: number;
}

export interface TimelineMarker {
  /** The request it happened in; one past the last for what happened since. */
  readonly request: number;
  readonly kind: EventKind;
  readonly label: string;
  /** Events of this kind in the request. */
  readonly count: number;
  /** How many of them took something out of the context (a checkpoint's closing line, a snapshot or a check do not). */
  readonly compressions: number;
  readonly savedTokens: number;
  /** The events' own words, the first few. */
  readonly details: readonly string[];
}

export interface TimelineModel {
  readonly points: readonly TimelinePointView[];
  readonly markers: readonly TimelineMarker[];
  /** Requests recorded in all. */
  readonly requests: number;
  /** The highest figure to draw: the largest budget or point. */
  readonly maxTokens: number;
}

/** Details kept per marker. */
const MARKER_DETAILS = 3;

export function timelineModel(state: SessionState): TimelineModel {
  const points: TimelinePointView[] = [];
  let request = 0;
  let maxTokens = 0;
  for (const p of state.timeline) {
    const requests = p.requests ?? 1;
    request += requests;
    points.push({
      request,
      at: p.at,
      before: p.before,
      after: p.after,
      level: p.level,
      budget: p.budget,
      requests,
      ...(p.reused !== undefined ? { reused: p.reused } : {}),
    });
    maxTokens = Math.max(maxTokens, p.before, p.after, p.budget);
  }
  const markers: TimelineMarker[] = [];
  const history = state.history;
  let start = 0;
  const place = (end: number, at: number) => {
    const byKind = new Map<EventKind, { count: number; compressions: number; saved: number; details: string[] }>();
    for (let i = start; i < Math.min(end, history.length); i++) {
      const e = history[i];
      const entry = byKind.get(e.kind) ?? { count: 0, compressions: 0, saved: 0, details: [] };
      entry.count++;
      if (compressionKindOf(e) !== undefined) entry.compressions++;
      entry.saved += e.savedTokens;
      if (entry.details.length < MARKER_DETAILS) entry.details.push(e.detail);
      byKind.set(e.kind, entry);
    }
    for (const [kind, m] of byKind) {
      markers.push({
        request: at,
        kind,
        label: EVENT_KIND_LABELS[kind],
        count: m.count,
        compressions: m.compressions,
        savedTokens: m.saved,
        details: m.details,
      });
    }
    start = Math.max(start, Math.min(end, history.length));
  };
  // A point's events are those up to its end; a state older than the timeline puts its earlier ones on the first point.
  state.timeline.forEach((p, i) => place(p.historyEnd, points[i].request));
  place(history.length, request + 1);
  return { points, markers, requests: request, maxTokens };
}
