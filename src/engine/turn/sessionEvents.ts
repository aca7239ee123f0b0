/**
 * What happened in a session, as it happens. The turn (and the work a user asks for outside one:
 * "Compress context", a restore, an edit on the dashboard) emits these; whoever shows figures (the
 * status bar, the tree, the dashboard, an answer's summary, the chat's progress) subscribes, so a
 * driver never reports to each of them by hand.
 */
import type { AnswerActivity } from '../activity/answerActivity';
import type { CompressionEvent } from '../model/compressionEvent';
import type { ContextSession } from '../session/contextSession';
import type { PreparedContext } from '../model/preparedContext';
import type { TurnOutcome } from './turnOutcome';

export type SessionEvent =
  /** An answer began that the status bar follows (an @ctx turn): what ctx does from now on is gathered in `answer`, for its summary. */
  | { readonly kind: 'answerStarted'; readonly session: ContextSession; readonly answer: AnswerActivity }
  /** Messages joined the session; `events` is what tier 1 did on their arrival (offloads). */
  | { readonly kind: 'added'; readonly session: ContextSession; readonly events: readonly CompressionEvent[] }
  /** A compression started inside work under way (Tier 3 says so in plain words). */
  | { readonly kind: 'compressing'; readonly session: ContextSession; readonly what: string }
  /** Work that may compress the context ended, whether or not it compressed. */
  | { readonly kind: 'compressionEnded'; readonly session: ContextSession }
  /** A request's context was prepared (its steps' events inside: checkpoints and the rest), or the context was measured after work changed it. */
  | { readonly kind: 'prepared'; readonly session: ContextSession; readonly prepared: PreparedContext }
  /** The model's answer of one round was taken in: `toolCalls` are the calls the turn runs itself. */
  | { readonly kind: 'answered'; readonly session: ContextSession; readonly round: number; readonly toolCalls: number }
  /** A turn ended, and how. */
  | { readonly kind: 'turnEnded'; readonly session: ContextSession; readonly outcome: TurnOutcome };

/** Where a session's events go: an emitter's `fire`, or a host's function that passes them on. */
export type SessionEventSink = (event: SessionEvent) => void;

/** A sink that drops every event (a replay nobody watches). */
export const IGNORE_EVENTS: SessionEventSink = () => undefined;
