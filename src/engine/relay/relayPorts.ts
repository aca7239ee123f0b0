/**
 * What a relayed request needs from its host: the wrapped model, the tools, where the answer goes,
 * and how ctx's own recovery tools run. The types of the caller's messages, tools and response
 * parts are the host's; the relay only passes them along.
 */
import type { Cancellation } from '../cancellation';
import type { Clock, Logger } from '../ports';
import type { ConversationRouter, SessionSource } from '../conversation/conversationRouter';
import type { IncomingMessage } from '../conversation/incomingMessage';
import type { TurnOptions } from '../checkpoints/turnOptions';
import type { ContextSession } from '../session/contextSession';
import type { AnswerPart } from '../turn/answerPart';
import type { SessionEventSink } from '../turn/sessionEvents';
import type { ToolCallBlock } from '../types';
import type { Outgoing } from './outgoing';

/** A part of the wrapped model's answer, as the relay sees it; `part` is what is forwarded. */
export type RelayPart<Part> = AnswerPart<Part>;

export interface RelayRequest<Raw, Tool> {
  /** Every message of the request, as sent. */
  readonly messages: readonly IncomingMessage<Raw>[];
  /** The tools the caller offered; they go to the wrapped model unchanged. */
  readonly tools: readonly Tool[];
  /** The wrapped model's input window. */
  readonly maxInputTokens: number;
  readonly cancellation: Cancellation;
}

/** The turn options of a request through a ctx model, and whether the summarizer is the model it wraps. */
export interface RelayTurnOptions extends TurnOptions {
  /**
   * True when the summarizer is the wrapped model itself: its summaries are then asked as the conversation's next
   * request, with the caller's tools (a prompt-cache read). @default false
   */
  readonly summarizerIsConversationModel?: boolean;
}

export interface RelayPorts<Raw, Tool, Part> {
  readonly router: ConversationRouter;
  /** Where the router gets sessions for this request. */
  readonly sessions: SessionSource;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The budget for a window (less the answer's reserve, or the settings' override). */
  budgetFor(maxInputTokens: number): number;
  /** Tokens of a text, as the wrapped model would count it. */
  countText(text: string): Promise<number>;
  /** The text a tool definition costs in the request (name, description, schema). */
  toolText(tool: Tool): string;
  toolName(tool: Tool): string;
  /** ctx's recovery tools, offered to the model when something was compressed away. */
  readonly recoveryTools: readonly Tool[];
  /** Runs one of ctx's recovery tools for a session; a thrown error becomes an error result. */
  runRecoveryTool(session: ContextSession, call: ToolCallBlock): Promise<string>;
  /** Summarizer and the like for the session's tiers. */
  turnOptions(): Promise<RelayTurnOptions>;
  /** Whether a caller's message carries a cache breakpoint of its own (`promptCache/cacheBreakpoints.ts`). */
  cacheMarked(raw: Raw): boolean;
  /** Sends the messages to the wrapped model; the answer streams back as relay parts. */
  send(messages: readonly Outgoing<Raw>[], tools: readonly Tool[], cancellation: Cancellation): Promise<AsyncIterable<RelayPart<Part>>>;
  /**
   * Sends a request whose answer is ctx's own, never the caller's (a checkpoint's summary asked as the conversation's
   * next request), with the caller's tools and options; resolves to the answer's text.
   */
  ask(messages: readonly Outgoing<Raw>[], tools: readonly Tool[], cancellation: Cancellation): Promise<string>;
  /** Forwards a part of the answer to the caller. */
  report(part: Part): void;
  /** Where what happened in the session goes (the status bar and the tree follow it). */
  readonly emit: SessionEventSink;
}
