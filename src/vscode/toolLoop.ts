/**
 * One @ctx turn: the user's message joins the session, the workspace's instructions are brought up to
 * date in the ledger, the engine prepares the context, the model answers, the tools it asks for run
 * (through VS Code, which asks the user to confirm where a tool wants it), their results go through the
 * engine (tier 1 on arrival), and this repeats until the model answers without tool calls or the round
 * limit is reached.
 */
import * as vscode from 'vscode';
import type { CompressionEvent } from '../engine/compressionEvent';
import { newMessageId } from '../engine/ids';
import { readUntilCancelled } from '../engine/relay/untilCancelled';
import type { InstructionFiles, Logger } from '../engine/ports';
import type { ContextSession } from '../engine/session/contextSession';
import { message, textBlock, toolCallBlock, toolResultBlock, type Block, type ToolCallBlock } from '../engine/types';
import { explainModelError, NOTHING_LOST } from './chatErrors';
import type { CtxConfig } from './config';
import { toChatMessages, toolResultText } from './convert';
import { refreshInstructions } from './instructionFiles';
import type { SessionManager } from './sessions';
import { turnOptionsFor, type SlashCommandDeps } from './slashCommands';
import { errorMessage } from '../engine/errors';
import { isRecord } from '../engine/schema';
import { formatCount } from '../engine/text/numbers';
import { notOfferedResult, offeredTools, requestTools } from './turnTools';

export interface TurnDeps extends SlashCommandDeps {
  readonly sessions: SessionManager;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
  /** The workspace's instruction files, kept in the ledger. */
  readonly instructions: InstructionFiles;
}

/**
 * Runs the turn, then records the context as it stands after the answer (the status bar shows that).
 * What ctx did on the way is gathered by the session manager's answer activity, whose summary the
 * participant writes once at the end; here it only shows as progress.
 */
export async function runTurn(
  session: ContextSession,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  deps: TurnDeps,
): Promise<void> {
  try {
    await runRounds(session, request, stream, token, deps);
  } finally {
    deps.sessions.recordPrepared(session, await session.measure(deps.sessions.budgetFor(request.model.maxInputTokens)));
  }
}

async function runRounds(
  session: ContextSession,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  deps: TurnDeps,
): Promise<void> {
  const config = deps.config();
  const now = () => Date.now();
  const budget = deps.sessions.budgetFor(request.model.maxInputTokens);
  report(session, await session.add([message(newMessageId('u', now()), 'user', [textBlock(request.prompt)], now())]), stream, deps);
  const choice = offeredTools(config.allowedTools, request.toolReferences);
  const offered = new Set(choice.tools.map((t) => t.name));
  if (choice.leftOut.length > 0) {
    deps.logger.warn(
      `${choice.leftOut.length} tools were not offered (at most ${choice.tools.length} a request): ${choice.leftOut.join(', ')}`,
    );
  }
  const turn = await turnOptionsFor({ session, request, stream, token, deps });

  for (let round = 0; round < config.maxToolRounds; round++) {
    await refreshInstructions(session, request.references, deps.instructions, deps.logger);
    const prepared = await deps.sessions.runCompression(session, () => session.prepare(budget, turn));
    deps.sessions.recordPrepared(session, prepared);
    showProgress(prepared.events, stream, deps);

    const text: string[] = [];
    const calls: ToolCallBlock[] = [];
    try {
      const response = await request.model.sendRequest(
        toChatMessages(prepared.messages),
        { ...requestTools(choice, round), justification: 'ctx answers your question with its own managed context.' },
        token,
      );
      const read = await readUntilCancelled(response.stream, token, (part) => {
        if (part instanceof vscode.LanguageModelTextPart) {
          text.push(part.value);
          stream.markdown(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          calls.push(toolCallBlock(part.callId, part.name, isRecord(part.input) ? part.input : { value: part.input }));
        }
      });
      if (read === 'cancelled') throw new vscode.CancellationError();
    } catch (e) {
      // Keep what the model did say, so the archive holds the partial answer too.
      await addAssistant(session, text, [], now());
      stream.markdown(`\n\n${explainModelError(e)} ${NOTHING_LOST}`);
      deps.logger.warn(`Model request failed: ${errorMessage(e)}`);
      return;
    }
    await addAssistant(session, text, calls, now());
    if (calls.length === 0) return;

    const results: Block[] = [];
    for (const call of calls) {
      if (token.isCancellationRequested) {
        results.push(toolResultBlock(call.id, 'Not run: the turn was stopped before this tool ran.', true, call.name));
        continue;
      }
      if (!offered.has(call.name)) {
        deps.logger.warn(`The model called ${call.name}, which was not offered this turn; it was not run.`);
        results.push(toolResultBlock(call.id, notOfferedResult(call.name), true, call.name));
        continue;
      }
      stream.progress(`Running ${call.name}…`);
      results.push(await invoke(call, request, token, deps.logger));
    }
    const events = await session.add(results.map((r) => message(newMessageId('t', now()), 'tool', [r], now())));
    report(session, events, stream, deps);
    if (token.isCancellationRequested) {
      stream.markdown(`\n\nStopped. ${NOTHING_LOST}`);
      await session.save();
      return;
    }
  }
  stream.markdown(`\n\n*Stopped after ${config.maxToolRounds} tool rounds (the \`ctx.tools.maxRounds\` setting). Ask me to continue.*`);
  await session.save();
}

async function addAssistant(session: ContextSession, text: readonly string[], calls: readonly ToolCallBlock[], at: number): Promise<void> {
  const joined = text.join('');
  const blocks: Block[] = [...(joined ? [textBlock(joined)] : []), ...calls];
  if (blocks.length > 0) await session.add([message(newMessageId('a', at), 'assistant', blocks, at)]);
}

/**
 * Runs a tool with the request's invocation token, so VS Code shows the call in the chat and asks the user
 * to confirm it when the tool wants that. A refusal or a failure becomes the call's result.
 */
async function invoke(call: ToolCallBlock, request: vscode.ChatRequest, token: vscode.CancellationToken, logger: Logger): Promise<Block> {
  try {
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
    return toolResultBlock(call.id, toolResultText(result), false, call.name);
  } catch (e) {
    if (e instanceof vscode.CancellationError && !token.isCancellationRequested) {
      logger.info(`The user did not allow ${call.name} to run.`);
      return toolResultBlock(call.id, `The user did not allow ${call.name} to run. Do not run it again unless they ask.`, true, call.name);
    }
    const reason = errorMessage(e);
    logger.warn(`Tool ${call.name} failed: ${reason}`);
    return toolResultBlock(call.id, `Tool ${call.name} failed: ${reason}`, true, call.name);
  }
}

/** Records what the engine did on the messages' arrival (tier 1), and shows it as progress. */
function report(session: ContextSession, events: readonly CompressionEvent[], stream: vscode.ChatResponseStream, deps: TurnDeps): void {
  deps.sessions.recordEvents(session, events);
  showProgress(events, stream, deps);
}

/**
 * Shows what the engine did as progress, which does not stay in the answer (the answer's summary says it
 * once, with counts), and links each offloaded result so the user can open it.
 */
function showProgress(events: readonly CompressionEvent[], stream: vscode.ChatResponseStream, deps: TurnDeps): void {
  for (const e of events) {
    stream.progress(`Context: ${e.detail}${e.savedTokens > 0 ? ` (saved ${formatCount(e.savedTokens)} tokens)` : ''}`);
    if (e.file) stream.reference(vscode.Uri.file(deps.sessions.store.locate(e.file)));
  }
}
