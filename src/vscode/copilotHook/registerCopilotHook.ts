/**
 * Wires ctx's archive of Copilot's history: the command that installs or removes the PreCompact hook, the hook
 * file kept pointing at this installation, and the import of what the hook copies into ctx's storage (when a copy
 * arrives, at start, and before every `ctx_recover` search).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import type { Logger } from '../../engine/host/ports';
import { findCopilotResultFile } from '../../copilotHook/copilotResultFiles';
import { CopilotTranscriptImport, INBOX_FOLDER } from '../../copilotHook/transcriptImport';
import { CallerResultFiles } from '../provider/callerResultFiles';
import type { SessionManager } from '../sessions';
import { COMMANDS } from '../commandIds';
import { refreshCopilotHook, toggleCopilotHook } from './archiveCopilotHistory';

/** Copies arriving close together (the hook writes, then renames) are one import. */
const IMPORT_DEBOUNCE_MS = 300;

export interface CopilotHookDeps {
  readonly sessions: SessionManager;
  readonly logger: Logger;
  /** The folder of ctx's store. */
  readonly storageRoot: string;
  /** Copilot's storage folders, where it writes large tool results. */
  readonly copilotStorage: readonly string[];
}

export function registerCopilotHook(context: vscode.ExtensionContext, deps: CopilotHookDeps): CopilotTranscriptImport {
  const inbox = path.join(deps.storageRoot, INBOX_FOLDER);
  const reader = new CallerResultFiles(() => deps.copilotStorage);
  const transcripts = new CopilotTranscriptImport(deps.sessions, deps.logger, async (sessionId, callId) => {
    const file = await findCopilotResultFile(deps.copilotStorage, sessionId, callId);
    return file === undefined ? undefined : reader.readResultFile(file, callId);
  });
  const commandDeps = { extensionUri: context.extensionUri, inbox, logger: deps.logger };
  const importNow = () =>
    void transcripts.importPending().catch((e: unknown) => deps.logger.warn(`Could not archive Copilot's history: ${String(e)}`));

  let timer: NodeJS.Timeout | undefined;
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(inbox), '*.jsonl'));
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(importNow, IMPORT_DEBOUNCE_MS);
  };
  context.subscriptions.push(
    watcher,
    watcher.onDidCreate(soon),
    watcher.onDidChange(soon),
    { dispose: () => clearTimeout(timer) },
    vscode.commands.registerCommand(COMMANDS.archiveCopilotHistory, async () => {
      try {
        return await toggleCopilotHook(commandDeps);
      } catch (e) {
        deps.logger.error(e instanceof Error ? e : String(e));
        void vscode.window.showErrorMessage(`ctx: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    }),
  );
  // After activation, never during it.
  setTimeout(() => {
    importNow();
    void refreshCopilotHook(commandDeps).catch((e: unknown) => deps.logger.warn(`Could not update the PreCompact hook: ${String(e)}`));
  }, 0);
  return transcripts;
}
