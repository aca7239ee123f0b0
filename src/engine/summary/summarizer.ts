/**
 * The Summarizer port: turns a range of the conversation into a structured summary (design §4.2's
 * format) within a token target. The host implements it with a language model; the engine's
 * deterministic summarizer builds the same structure from the messages themselves and is the
 * floor whenever the model fails.
 */
import type { Cancellation } from '../cancellation';
import type { Fact } from '../model/fact';
import type { Message } from '../types';

/** What the summary must serve (design §4.2: the goal-aware prompt). Goals and decisions are never summarized away. */
export interface SummaryGuide {
  /** The session intent: the first user request, verbatim. */
  readonly intent: string;
  /** Active goals, in order. */
  readonly goals: readonly string[];
  /** Locked decisions. */
  readonly decisions: readonly string[];
  /** Progress marks (`[CHECKPOINT]` lines) with their status, e.g. "Design auth flow - COMPLETED". */
  readonly progress: readonly string[];
  /** The latest next step, if one was stated. */
  readonly nextStep?: string;
}

/** Where the originals can be found again (the summary's recovery references, design §4.2). */
export interface RecoveryReferences {
  /** Store-relative or absolute path of the full archive. */
  readonly archive: string;
  /** Folder of offloaded results. */
  readonly offloaded: string;
  /** Ids of the first and last archived messages the summary covers. */
  readonly firstMessageId: string;
  readonly lastMessageId: string;
}

/** A range of history becomes a checkpoint summary; a single old tool result is compressed in place (design §3.5). */
export type SummaryKind = 'history' | 'toolResult';

export interface SummaryRequest {
  /** @default 'history' */
  readonly kind?: SummaryKind;
  /**
   * The messages to summarize, in order. Tool results may be long; tool calls carry their input.
   * For a tool result: the assistant message with the call, then the tool message with the result.
   */
  readonly messages: readonly Message[];
  readonly guide: SummaryGuide;
  /** The summary should fit in this many tokens (about 1200 for a new checkpoint, less as it ages). */
  readonly targetTokens: number;
  /** What the user asked the summary to focus on (`/compress <focus>`). */
  readonly focus?: string;
  readonly references: RecoveryReferences;
  /**
   * The facts of `messages` (see `extractFacts`), when the caller already has them; the
   * deterministic summary builds its decisions, errors and outcomes on them (reading them from
   * the messages itself when absent), and a model is asked to keep them.
   */
  readonly facts?: readonly Fact[];
  /**
   * True when the summary is shown beside the ledger (as a checkpoint is), which holds verbatim
   * the session intent, the active goals, the locked decisions, the progress marks, the next step
   * and every user message: the summary leaves those out and gives the room to everything else.
   * @default false
   */
  readonly besideLedger?: boolean;
  /**
   * The conversation as its next request would send it, when the summary is asked as that request's continuation
   * (see `conversationSummary.ts`): a provider's prompt cache reads all of it but the question.
   */
  readonly conversation?: ConversationCopy;
}

/**
 * A copy of the conversation, as the model last read it plus what came since, with the place of the messages to
 * summarize in it.
 */
export interface ConversationCopy {
  readonly messages: readonly Message[];
  /** Index in `messages` of the first and of the last message to summarize. */
  readonly first: number;
  readonly last: number;
  /** Tokens of each of `messages`, as the conversation's requests count them. */
  readonly messageTokens: readonly number[];
}

/** A history summary's request without its messages: what is asked of the summary, apart from what it reads. */
export type SummaryBrief = Omit<SummaryRequest, 'messages'>;

export interface Summarizer {
  /** Shown to people: "deterministic", or the model's name. */
  readonly name: string;
  /** Largest prompt, in tokens, one call can take; larger input is summarized in chunks by the caller. */
  readonly maxInputTokens: number;
  /** The summary text (Markdown). Rejects on failure or cancellation; never returns partial work. */
  summarize(request: SummaryRequest, cancellation: Cancellation): Promise<string>;
  /**
   * The summary asked as the conversation's next request: the copy's messages as they were sent, then `question`.
   * Only a summarizer that is the conversation's own model has it (the same model, instructions and tools make the
   * same prefix); it rejects on failure or cancellation, as `summarize` does.
   */
  summarizeConversation?(conversation: ConversationCopy, question: string, cancellation: Cancellation): Promise<string>;
}
