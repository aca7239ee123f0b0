/**
 * What ctx is doing and did lately in each session, kept from the session events (`../turn/sessionEvents.ts`)
 * for the status bar, the tree, the dashboard and the status report: the figures of the latest request, the
 * current answer (or the last one once it ended), the latest compression, and the compression under way.
 */
import { Emitter, type Disposable } from '../events';
import type { PreparedContext } from '../model/preparedContext';
import type { SessionEvent } from './sessionEvents';
import type { AnswerActivity } from '../activity/answerActivity';
import { compressionRecord, type CompressionRecord } from '../activity/lastCompression';

/** One session's activity. */
export interface SessionActivity {
  /** The figures of the latest request, or of the context measured after work changed it. */
  readonly last?: PreparedContext;
  /** The current answer, or the last one once it ended. */
  readonly answer?: AnswerActivity;
  readonly lastCompression?: CompressionRecord;
  /** What is being compressed right now, while a compression runs. */
  readonly compressing?: string;
}

export class SessionActivities implements Disposable {
  private readonly bySession = new Map<string, SessionActivity>();
  private readonly changeEmitter = new Emitter<void>();
  /** Fires when anything shown changed. */
  readonly onDidChange = this.changeEmitter.event;

  /** The activity of a session (empty when nothing happened in it yet). */
  of(sessionId: string): SessionActivity {
    return this.bySession.get(sessionId) ?? {};
  }

  /** Takes in one event. */
  take(e: SessionEvent): void {
    const id = e.session.id;
    const now = this.of(id);
    switch (e.kind) {
      case 'answerStarted':
        this.bySession.set(id, { ...now, answer: e.answer });
        return;
      case 'prepared': {
        const { prepared } = e;
        now.answer?.addPreparation(prepared);
        const record = compressionRecord(prepared.events, prepared.needed);
        this.bySession.set(id, { ...now, last: prepared, compressing: undefined, ...(record ? { lastCompression: record } : {}) });
        this.changeEmitter.fire();
        return;
      }
      case 'added': {
        now.answer?.addEvents(e.events);
        const record = compressionRecord(e.events);
        if (!record) return;
        this.bySession.set(id, { ...now, lastCompression: record });
        this.changeEmitter.fire();
        return;
      }
      case 'compressing':
        if (now.compressing === e.what) return;
        this.bySession.set(id, { ...now, compressing: e.what });
        this.changeEmitter.fire();
        return;
      case 'compressionEnded':
        if (!now.compressing) return;
        this.bySession.set(id, { ...now, compressing: undefined });
        this.changeEmitter.fire();
        return;
      case 'answered':
      case 'turnEnded':
        return;
    }
  }

  /** Forgets a session (its files were cleared). */
  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
