/** The `@ctx` chat participant: routes slash commands, runs turns, and remembers its session. */
import * as vscode from 'vscode';
import type { InstructionFiles, Logger } from '../engine/host/ports';
import { AnswerActivity, type ContextSession } from '../engine/host/session';
import { writeAnswerSummary } from './answerSummary';
import { explainModelError, NOTHING_LOST } from './chatErrors';
import { sessionIdFromHistory, type CtxChatMetadata } from './chatMetadata';
import type { CtxConfig } from './config';
import type { Recovery } from './recovery';
import type { SessionManager } from './sessions';
import { SLASH_COMMANDS } from './slashCommands';
import { withDirectModel } from './provider/directModel';
import { runChatTurn } from './toolLoop';

export const PARTICIPANT_ID = 'ctx.participant';

export interface ParticipantDeps {
  readonly sessions: SessionManager;
  readonly recovery: Recovery;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
  readonly extensionUri: vscode.Uri;
  /** The workspace's instruction files, kept in the ledger. */
  readonly instructions: InstructionFiles;
}

export function registerParticipant(context: vscode.ExtensionContext, deps: ParticipantDeps): void {
  const handler: vscode.ChatRequestHandler = (request, chatContext, stream, token) =>
    deps.sessions.trackTurn(async () => handle(await withDirectModel(request), chatContext, stream, token));
  const handle = async (
    request: vscode.ChatRequest,
    chatContext: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> => {
    const session = await deps.sessions.resume(sessionIdFromHistory(chatContext.history, PARTICIPANT_ID), request.model.family);
    const metadata: CtxChatMetadata = { ctxSessionId: session.id };
    const warningsBefore = session.warnings.length;
    const command = request.command ? SLASH_COMMANDS[request.command] : undefined;
    // A turn is an answer the status bar follows; a slash command's own warnings are summarized all the same.
    const answer = command ? new AnswerActivity() : deps.sessions.startAnswer(session);
    try {
      if (command) await command({ session, request, stream, token, deps });
      else await runChatTurn(session, request, stream, token, deps);
    } catch (e) {
      deps.logger.error(e instanceof Error ? e : String(e));
      stream.markdown(`\n\n${explainModelError(e)} ${NOTHING_LOST}`);
    } finally {
      await session.save();
    }
    answer.addWarnings(session.warnings.slice(warningsBefore).map((w) => w.message));
    writeAnswerSummary(stream, answer, { sessionId: session.id, ...reliabilityWarning(session, request, answer) });
    return { metadata };
  };

  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'ctx.png');
  context.subscriptions.push(participant);
}

/** The reliability warning (design §9), when this answer made a checkpoint and the score is below 40%. */
function reliabilityWarning(session: ContextSession, request: vscode.ChatRequest, answer: AnswerActivity): { reliabilityWarning?: string } {
  if (!answer.summary().compressions.kinds.some((k) => k.kind === 'checkpoint')) return {};
  const warning = session.reliability(request.model.family || request.model.id).warning;
  return warning ? { reliabilityWarning: warning } : {};
}
