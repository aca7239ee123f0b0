/**
 * ctx's own language-model tools, declared in `contributes.languageModelTools` so @ctx and
 * Copilot's agent mode can both call them: search what was compressed away, read an offloaded
 * result, and set a checkpoint (the watermark, design §3.4).
 */
import * as vscode from 'vscode';
import type { CopilotTranscriptImport } from '../copilotHook/transcriptImport';
import { CHECKPOINT_TOOL, RECOVER_TOOL } from '../engine/host/settings';
import type { Recovery } from './recovery';
import { readOffloadedText, recoverText, type ReadOffloadedInput, type RecoverInput } from './recoveryTools';
import type { SessionManager } from './sessions';

export const CTX_TOOL_PREFIX = 'ctx_';
export { RECOVER_TOOL };
export const READ_OFFLOADED_TOOL = 'ctx_read_offloaded';

interface CheckpointInput {
  readonly reason?: string;
}

export interface CtxToolDeps {
  readonly sessions: SessionManager;
  readonly recovery: Recovery;
  /** Copilot's history that ctx's PreCompact hook archived: taken in before each search, and searched too. */
  readonly copilotHistory: CopilotTranscriptImport;
}

const text = (value: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

export function registerCtxTools(context: vscode.ExtensionContext, deps: CtxToolDeps): void {
  const recover: vscode.LanguageModelTool<RecoverInput> = {
    async invoke({ input }) {
      // What the hook copied since the last search: a compaction that just ran is searchable at once.
      await deps.copilotHistory.importPending();
      const copilotSessions = await deps.copilotHistory.sessionIds();
      return text(await recoverText(deps.recovery, deps.sessions.current?.session.id, input, copilotSessions));
    },
  };

  const read: vscode.LanguageModelTool<ReadOffloadedInput> = {
    async invoke({ input }) {
      return text(await readOffloadedText(deps.recovery, deps.sessions.store, deps.sessions.current?.session.id, input));
    },
  };

  const checkpoint: vscode.LanguageModelTool<CheckpointInput> = {
    async invoke() {
      const session = deps.sessions.current?.session;
      if (!session) return text('No @ctx session is active, so there is nothing to checkpoint.');
      session.requestCheckpoint(CHECKPOINT_TOOL);
      return text(
        'Checkpoint set. From the next request on, tool calls and results before this point leave the context; ' +
          'all text stays, and everything remains searchable with ctx_recover.',
      );
    },
    prepareInvocation() {
      return { invocationMessage: 'Setting a context checkpoint' };
    },
  };

  context.subscriptions.push(
    vscode.lm.registerTool(RECOVER_TOOL, recover),
    vscode.lm.registerTool(READ_OFFLOADED_TOOL, read),
    vscode.lm.registerTool(CHECKPOINT_TOOL, checkpoint),
  );
}
