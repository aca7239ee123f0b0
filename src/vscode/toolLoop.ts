/**
 * The `@ctx` participant's side of the turn (`engine/turn/runTurn.ts`): the user's message joins the
 * session, the workspace's instructions are brought up to date in the ledger before each preparation,
 * the model's text streams into the chat, the tools it asks for run through VS Code (which asks the user
 * to confirm where a tool wants it), and their results join the session, round after round, up to the
 * `ctx.tools.maxRounds` setting. What the engine did shows as progress; the answer's summary at its end
 * comes from the session events.
 */
import * as vscode from 'vscode';
import { errorMessage, FirstOfEachKind, formatCount } from '../engine/host/display';
import { message, newMessageId, textBlock, type ToolCallBlock } from '../engine/host/messages';
import { type InstructionFiles, type Logger, systemClock } from '../engine/host/ports';
import {
  type CompressionEvent,
  type ContextSession,
  runTurn,
  type SessionEvent,
  type ToolOutput,
  type TurnEnd,
  type TurnModel,
} from '../engine/host/session';
import { explainModelError, NOTHING_LOST } from './chatErrors';
import type { CtxConfig } from './config';
import { toolResultText } from './convert';
import { refreshInstructions } from './instructionFiles';
import { relayParts } from './provider/responseParts';
import type { SessionManager } from './sessions';
import { turnOptionsFor, type SlashCommandDeps } from './slashCommands';
import { turnRequestMessages } from './turnRequests';
import { notOfferedResult, offeredTools, requestTools } from './turnTools';

export interface TurnDeps extends SlashCommandDeps {
  readonly sessions: SessionManager;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
  /** The workspace's instruction files, kept in the ledger. */
  readonly instructions: InstructionFiles;
}

/** Runs one @ctx turn and says in the chat how it ended when it did not end with the model's answer. */
export async function runChatTurn(
  session: ContextSession,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  deps: TurnDeps,
): Promise<void> {
  const config = deps.config();
  const choice = offeredTools(config.allowedTools, request.toolReferences);
  const offered = new Set(choice.tools.map((t) => t.name));
  if (choice.leftOut.length > 0) {
    deps.logger.warn(
      `${choice.leftOut.length} tools were not offered (at most ${choice.tools.length} a request): ${choice.leftOut.join(', ')}`,
    );
  }
  const model: TurnModel<unknown> = {
    answersJoin: 'session',
    maxRounds: config.maxToolRounds,
    send: async (messages, round) => {
      const response = await request.model.sendRequest(
        turnRequestMessages(messages),
        { ...requestTools(choice, round), justification: 'ctx answers your question with its own managed context.' },
        token,
      );
      return relayParts(response.stream);
    },
    runs: () => true,
    runTool: async (_session, call) => {
      if (!offered.has(call.name)) {
        deps.logger.warn(`The model called ${call.name}, which was not offered this turn; it was not run.`);
        return { content: notOfferedResult(call.name), isError: true };
      }
      stream.progress(`Running ${call.name}…`);
      return invoke(call, request, token, deps.logger);
    },
    forward: (part) => {
      if (part.kind === 'text') stream.markdown(part.text);
    },
  };
  const shown = new FirstOfEachKind();
  const outcome = await runTurn({
    cancellation: token,
    budget: deps.sessions.budgetFor(request.model.maxInputTokens),
    clock: systemClock,
    logger: deps.logger,
    emit: (e) => {
      deps.sessions.emit(e);
      showProgress(e, stream, deps, shown);
    },
    admit: async (next) => {
      const now = systemClock.now();
      const events = await session.add([message(newMessageId('u', now), 'user', [textBlock(request.prompt)], now)]);
      return next({ session, events });
    },
    turnOptions: () => turnOptionsFor({ request, stream, token, deps }),
    beforePrepare: () => refreshInstructions(session, request.references, deps.instructions, deps.logger),
    model: () => model,
  });
  const said = endWords(outcome.end, config.maxToolRounds);
  if (outcome.end.kind === 'failed') deps.logger.warn(`Model request failed: ${errorMessage(outcome.end.error)}`);
  if (said) stream.markdown(said);
}

/** What the chat says when the turn did not end with the model's answer. */
function endWords(end: TurnEnd, maxRounds: number): string | undefined {
  switch (end.kind) {
    case 'answered':
      return undefined;
    case 'cancelled':
      return `\n\n${explainModelError(new vscode.CancellationError())} ${NOTHING_LOST}`;
    case 'failed':
      return `\n\n${explainModelError(end.error)} ${NOTHING_LOST}`;
    case 'roundLimit':
      return `\n\n*Stopped after ${maxRounds} tool rounds (the \`ctx.tools.maxRounds\` setting). Ask me to continue.*`;
  }
}

/**
 * Runs a tool with the request's invocation token, so VS Code shows the call in the chat and asks the user
 * to confirm it when the tool wants that. A refusal or a failure becomes the call's result.
 */
async function invoke(
  call: ToolCallBlock,
  request: vscode.ChatRequest,
  token: vscode.CancellationToken,
  logger: Logger,
): Promise<ToolOutput> {
  try {
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
    return { content: toolResultText(result), isError: false };
  } catch (e) {
    if (e instanceof vscode.CancellationError && !token.isCancellationRequested) {
      logger.info(`The user did not allow ${call.name} to run.`);
      return { content: `The user did not allow ${call.name} to run. Do not run it again unless they ask.`, isError: true };
    }
    const reason = errorMessage(e);
    logger.warn(`Tool ${call.name} failed: ${reason}`);
    return { content: `Tool ${call.name} failed: ${reason}`, isError: true };
  }
}

/**
 * Shows what the engine did as progress, which does not stay in the answer (the answer's summary says it
 * once, with counts): the first event of each kind in the turn (`FirstOfEachKind`), with a link to its file.
 */
function showProgress(e: SessionEvent, stream: vscode.ChatResponseStream, deps: TurnDeps, shown: FirstOfEachKind): void {
  const events: readonly CompressionEvent[] =
    e.kind === 'added' || e.kind === 'prepared' ? (e.kind === 'added' ? e.events : e.prepared.events) : [];
  for (const event of shown.take(events)) {
    stream.progress(`Context: ${event.detail}${event.savedTokens > 0 ? ` (saved ${formatCount(event.savedTokens)} tokens)` : ''}`);
    if (event.file) stream.reference(vscode.Uri.file(deps.sessions.store.locate(event.file)));
  }
}
