/**
 * What a session did, recorded: events join the history and the session log, warnings are told,
 * each request adds a point to the timeline, and the state is saved.
 */
import type { CompressionEvent } from '../model/compressionEvent';
import type { Clock, Logger, Store } from '../ports';
import type { PreparedContext } from '../model/preparedContext';
import { appendSessionLog } from './sessionLog';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionStateCell } from './stateCell';
import { appendTimelinePoint } from '../model/timeline';
import { appended } from '../appendedList';

export interface SessionHistoryDeps {
  readonly cell: SessionStateCell;
  readonly store: Store;
  readonly paths: SessionPaths;
  readonly logger: Logger;
  readonly clock: Clock;
}

export class SessionHistory {
  constructor(private readonly deps: SessionHistoryDeps) {}

  /** What was done joins the history and the session log; the state is saved. */
  async record(events: readonly CompressionEvent[], warnings: readonly string[]): Promise<void> {
    const { cell, store, paths, logger } = this.deps;
    for (const warning of warnings) cell.warn(warning);
    if (events.length > 0) {
      cell.update({ history: appended(cell.state.history, events) });
      cell.changed('compressed');
      await appendSessionLog(store, paths, events, logger);
    }
    await cell.save();
  }

  /** A request: its point on the timeline (tokens before and after the steps, the level), then its events. */
  async recordRequest(prepared: PreparedContext): Promise<void> {
    const { cell, clock } = this.deps;
    const state = cell.state;
    cell.update({
      timeline: appendTimelinePoint(state.timeline, {
        at: clock.now(),
        before: prepared.before.tokens,
        after: prepared.tokens,
        level: prepared.level,
        budget: prepared.budget,
        historyEnd: state.history.length + prepared.events.length,
      }),
    });
    await this.record(prepared.events, []);
  }
}
