/** What @ctx stores in `ChatResult.metadata` to find its session on the next turn. */
import type * as vscode from 'vscode';
import { isSessionId } from '../engine/host/storage';

export interface CtxChatMetadata {
  readonly ctxSessionId: string;
}

export function isCtxChatMetadata(v: unknown): v is CtxChatMetadata {
  return typeof v === 'object' && v !== null && isSessionId((v as { ctxSessionId?: unknown }).ctxSessionId);
}

/** The session id of the latest @ctx answer in the history; old or foreign metadata gives none. */
export function sessionIdFromHistory(
  history: readonly (vscode.ChatRequestTurn | vscode.ChatResponseTurn)[],
  participantId: string,
): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if ('result' in turn && turn.participant === participantId) {
      const metadata: unknown = turn.result.metadata;
      if (isCtxChatMetadata(metadata)) return metadata.ctxSessionId;
    }
  }
  return undefined;
}
