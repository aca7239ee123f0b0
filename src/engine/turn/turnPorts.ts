/**
 * What a turn needs from its host (the `@ctx` participant, a ctx model, the replay): the caller's
 * messages and their session, the model to send to, the tools the turn runs, where what happened
 * goes, and one cancellation signal. See `runTurn.ts` for the steps and the cancellation rule.
 */
import type { Cancellation } from '../cancellation';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { Clock, Logger } from '../ports';
import type { ContextSession } from '../session/contextSession';
import type { CompressionEvent } from '../model/compressionEvent';
import type { Message, ToolCallBlock } from '../types';
import type { AnswerPart } from './answerPart';
import type { SessionEventSink } from './sessionEvents';

/** The caller's new messages, in their session. */
export interface Admitted {
  readonly session: ContextSession;
  /** What tier 1 did on their arrival. */
  readonly events: readonly CompressionEvent[];
}

/** A tool's result as the turn keeps it. */
export interface ToolOutput {
  readonly content: string;
  readonly isError: boolean;
}

export interface TurnPorts<Part> {
  /** The one signal that stops the turn (see `runTurn`). */
  readonly cancellation: Cancellation;
  /** Tokens the session's context may take in this turn's requests. */
  readonly budget: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where what happened goes (see `sessionEvents.ts`). */
  readonly emit: SessionEventSink;
  /**
   * Step 1, add: brings the caller's new messages into their session, then runs `next` (the steps
   * up to the first request) on it. A host that changes its sessions one request at a time (the
   * ctx models' router) runs `next` in its queue; the answer streams outside it.
   */
  admit<T>(next: (admitted: Admitted) => Promise<T>): Promise<T>;
  /** The summarizer and the like for Tier 3, asked once a turn; its `progress`, if any, still gets Tier 3's words. */
  turnOptions(session: ContextSession): Promise<TurnOptions>;
  /** Work before each preparation (the participant brings the workspace's instructions into the ledger). */
  beforePrepare?(session: ContextSession): Promise<void>;
  /**
   * The model, asked for once the first request is prepared (what it offers may depend on what the
   * preparation did). A turn without one (the replay, whose answers are in its transcript) ends
   * once the context is prepared.
   */
  readonly model?: (session: ContextSession) => TurnModel<Part>;
}

export interface TurnModel<Part> {
  /**
   * Where the answers and the results of the tools the turn runs go. `session`: they join the
   * session, and each round prepares the context again (@ctx, which owns its conversation).
   * `request`: the caller owns the conversation and sends the answer back with its next request,
   * so only the turn's own tool exchange is added to the next request of this turn (ctx models),
   * each result cut to the room left in the budget.
   */
  readonly answersJoin: 'session' | 'request';
  /** Most requests one turn sends. */
  readonly maxRounds: number;
  /** Sends a request (round counts from 0; the host picks the tools it offers for it); the answer streams back. */
  send(messages: readonly Message[], round: number): Promise<AsyncIterable<AnswerPart<Part>>>;
  /** Whether the turn runs this call itself; any other call is forwarded, and the turn ends with that answer. */
  runs(call: ToolCallBlock, round: number): boolean;
  /** Runs a call; a thrown error becomes an error result. */
  runTool(session: ContextSession, call: ToolCallBlock): Promise<ToolOutput>;
  /** Passes a part of the answer on (to the chat, or to the caller); a call the turn runs is never forwarded. */
  forward(part: AnswerPart<Part>): void;
}
