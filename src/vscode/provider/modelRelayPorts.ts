/**
 * What one request to a ctx model needs from VS Code, as the engine's relay ports: the wrapped
 * model, the caller's tools and options, ctx's recovery tools, the sessions and where the answer
 * goes.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../engine/host/display';
import { type Logger, systemClock, type TextCounts } from '../../engine/host/ports';
import type { ConversationRouter, RelayPorts } from '../../engine/host/relay';
import type { CtxConfig } from '../config';
import { READ_OFFLOADED_TOOL, RECOVER_TOOL } from '../ctxTools';
import { answerText, summarizerFor } from '../modelSummarizer';
import type { Recovery } from '../recovery';
import { readOffloadedText, recoverText, type ReadOffloadedInput, type RecoverInput } from '../recoveryTools';
import type { SessionManager } from '../sessions';
import { hasCacheBreakpoint, toForwarded } from './forwarded';
import { relayParts } from './responseParts';

export type ModelRelayPorts = RelayPorts<vscode.LanguageModelChatRequestMessage, vscode.LanguageModelChatTool, unknown>;

export interface ModelRelayDeps {
  readonly sessions: SessionManager;
  readonly recovery: Recovery;
  readonly router: ConversationRouter;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
  /** Remembered counts in the wrapped model's encoding. */
  readonly counts: TextCounts;
}

/** The request being answered. */
export interface ModelRequest {
  readonly target: vscode.LanguageModelChat;
  readonly options: vscode.ProvideLanguageModelChatResponseOptions;
  readonly progress: vscode.Progress<vscode.LanguageModelResponsePart>;
  readonly token: vscode.CancellationToken;
}

/** The ports; `onSend` is called before anything goes to the wrapped model. */
export function modelRelayPorts(deps: ModelRelayDeps, request: ModelRequest, onSend: () => void): ModelRelayPorts {
  const { sessions, recovery, router, logger, counts } = deps;
  const { target, options, progress, token } = request;
  return {
    router,
    logger,
    clock: systemClock,
    sessions: { create: () => sessions.create(target.family), open: (id) => sessions.get(id) },
    budgetFor: (window) => sessions.budgetFor(window),
    countText: (text) => counts.count(text),
    toolText: (t) => JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }),
    toolName: (t) => t.name,
    recoveryTools: vscode.lm.tools
      .filter((t) => t.name === RECOVER_TOOL || t.name === READ_OFFLOADED_TOOL)
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    runRecoveryTool: (session, call) =>
      call.name === RECOVER_TOOL
        ? recoverText(recovery, session.id, call.input as unknown as RecoverInput)
        : readOffloadedText(recovery, sessions.store, session.id, call.input as unknown as ReadOffloadedInput),
    turnOptions: async () => {
      const summarizer = await summarizerFor(deps.config().summarizerModel, target);
      return {
        ...(summarizer ? { summarizer, summarizerIsConversationModel: summarizer.modelId === target.id } : {}),
        cancellation: token,
      };
    },
    cacheMarked: hasCacheBreakpoint,
    send: async (messages, tools) => {
      onSend();
      const response = await target.sendRequest(
        toForwarded(messages),
        {
          tools: [...tools],
          toolMode: options.toolMode,
          modelOptions: options.modelOptions,
          justification: 'ctx keeps this conversation inside the model’s context window.',
        },
        token,
      );
      return relayParts(response.stream);
    },
    ask: (messages, tools, cancellation) =>
      answerText(
        target,
        toForwarded(messages),
        {
          tools: [...tools],
          toolMode: options.toolMode,
          modelOptions: options.modelOptions,
          justification: 'ctx summarizes older parts of this conversation so it fits the context window.',
        },
        cancellation,
      ),
    report: (part) => {
      try {
        progress.report(part as vscode.LanguageModelResponsePart);
      } catch (e) {
        logger.warn(`A part of the answer could not be passed on: ${errorMessage(e)}`);
      }
    },
    emit: (e) => {
      // The session a ctx model's request went to becomes the current one, as @ctx's does.
      if (e.kind === 'prepared') sessions.follow(e.session, target.family);
      sessions.emit(e);
    },
  };
}
