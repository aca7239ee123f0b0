/**
 * Work on a session outside a turn that changes what the UI shows ("Compress context", a restore,
 * an edit on the dashboard), run so that it emits what it did like a turn does.
 */
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { ContextSession } from '../session/contextSession';
import type { PreparedContext } from '../model/preparedContext';
import type { SessionEventSink } from './sessionEvents';

/**
 * Runs work that may compress the context: a compression is under way from the moment `what` is
 * given (at once) or Tier 3 reports progress, until the work ends.
 */
export async function whileCompressing<T>(
  emit: SessionEventSink,
  session: ContextSession,
  work: () => Promise<T>,
  what?: string,
): Promise<T> {
  if (what) emit({ kind: 'compressing', session, what });
  try {
    return await work();
  } finally {
    emit({ kind: 'compressionEnded', session });
  }
}

/** The turn options with Tier 3's progress also said as a compression under way. */
export function compressionProgress(emit: SessionEventSink, session: ContextSession, turn: TurnOptions): TurnOptions {
  return {
    ...turn,
    progress: (what) => {
      turn.progress?.(what);
      emit({ kind: 'compressing', session, what });
    },
  };
}

/** Runs a compression (`session.compress` and the like) and emits the context it left. */
export async function compressReported(
  emit: SessionEventSink,
  session: ContextSession,
  work: () => Promise<PreparedContext>,
  what: string,
): Promise<PreparedContext> {
  const prepared = await whileCompressing(emit, session, work, what);
  emit({ kind: 'prepared', session, prepared });
  return prepared;
}

/** Measures the context as it stands (after a restore or an edit) and emits it. */
export async function measureReported(emit: SessionEventSink, session: ContextSession, budget: number): Promise<PreparedContext> {
  const prepared = await session.measure(budget);
  emit({ kind: 'prepared', session, prepared });
  return prepared;
}
