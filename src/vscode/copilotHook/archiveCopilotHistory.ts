/**
 * "Archive Copilot's history before it compacts" in VS Code: binds the command's decisions (`toggleHook`) to the
 * window's modal dialogs and the workspace file system. The hook runs ctx's own script, which copies Copilot's
 * transcript into ctx's storage before Copilot's summary replaces the history; ctx takes it into a session's archive,
 * where `ctx_recover` finds it (`copilotHook/transcriptImport.ts`).
 */
import * as vscode from 'vscode';
import type { Logger } from '../../engine/host/ports';
import { toggleHook, type HookToggleOutcome } from '../../copilotHook/hookToggle';
import { hookFileState, hookPlace } from './copilotHookFile';

export interface ArchiveCommandDeps {
  readonly extensionUri: vscode.Uri;
  /** ctx's inbox folder, where the hook copies transcripts. */
  readonly inbox: string;
  readonly logger: Logger;
}

export async function toggleCopilotHook(deps: ArchiveCommandDeps): Promise<HookToggleOutcome> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const place = folder ? hookPlace(folder.uri, deps.extensionUri, deps.inbox) : undefined;
  const outcome = await toggleHook(
    {
      file: place?.file.fsPath,
      trusted: vscode.workspace.isTrusted,
      scriptFolder: vscode.Uri.joinPath(deps.extensionUri, 'dist').fsPath,
      read: async () => (place ? (await hookFileState(place.file)).text : undefined),
      write: async (text) => {
        if (place) await vscode.workspace.fs.writeFile(place.file, new TextEncoder().encode(text));
      },
      remove: async () => {
        if (place) await vscode.workspace.fs.delete(place.file);
      },
      ask: async ({ message, detail, yes }) => {
        // VS Code refuses dialogs in some hosts (its extension tests): that is no consent.
        const answer = await Promise.resolve(vscode.window.showInformationMessage(message, { modal: true, detail }, yes)).catch(
          () => undefined,
        );
        return answer === yes;
      },
      warn: (message) => void vscode.window.showWarningMessage(message),
    },
    place?.text ?? '',
  );
  deps.logger.info(`Archive Copilot's history: ${outcome}${place ? ` (${place.file.fsPath})` : ''}`);
  return outcome;
}

/**
 * Keeps an installed hook pointing at this installation: after an update of ctx the old script path is gone, so
 * ctx's own hook file (and no other) is rewritten with the current one.
 */
export async function refreshCopilotHook(deps: ArchiveCommandDeps): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || !vscode.workspace.isTrusted) return;
  const place = hookPlace(folder.uri, deps.extensionUri, deps.inbox);
  const { state, text } = await hookFileState(place.file);
  if (state !== 'ctx' || text === place.text) return;
  await vscode.workspace.fs.writeFile(place.file, new TextEncoder().encode(place.text));
  deps.logger.info(`Updated the PreCompact hook ${place.file.fsPath} to this installation of ctx`);
}
