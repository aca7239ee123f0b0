/**
 * How an @ctx turn's requests go to the model: the session's messages with ctx's cache breakpoints, and the tools
 * of the turn. A checkpoint's summary asked as the turn's next request goes the same way, so the provider's prompt
 * cache reads all of it but the question.
 */
import * as vscode from 'vscode';
import type { Message } from '../engine/host/messages';
import { askingInConversation, type Cancellation, type Summarizer } from '../engine/host/ports';
import { breakpointsOf } from '../engine/host/session';
import { toChatMessages } from './convert';
import { answerText } from './modelSummarizer';
import { offeredTools, requestTools } from './turnTools';

/** The messages of a request of the turn, with ctx's cache breakpoints. */
export function turnRequestMessages(messages: readonly Message[]): vscode.LanguageModelChatMessage[] {
  return toChatMessages(
    messages,
    breakpointsOf(
      messages,
      (m) => m,
      () => false,
    ),
  );
}

/**
 * `summarizer`, the chat request's own model, asking its summaries as the turn's next request: the messages as the
 * turn sends them, with the tools a later round offers.
 */
export function summarizingWithinTurn(summarizer: Summarizer, request: vscode.ChatRequest, allowedTools: readonly string[]): Summarizer {
  const tools = requestTools(offeredTools(allowedTools, request.toolReferences), 1);
  return askingInConversation(summarizer, (messages: readonly Message[], cancellation: Cancellation) =>
    answerText(
      request.model,
      turnRequestMessages(messages),
      { ...tools, justification: 'ctx summarizes older parts of your conversation so it fits the context window.' },
      cancellation,
    ),
  );
}
