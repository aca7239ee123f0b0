/**
 * ctx's PreCompact hook file in the workspace (`.github/hooks/ctx-archive-before-compaction.json`): where it is,
 * what it should say on this machine, and whether the one there is ctx's.
 */
import * as vscode from 'vscode';
import { HOOK_FILE_PATH, HOOK_SCRIPT_NAME, hookFileText, isCtxHookFile } from '../../copilotHook/hookFile';

/** The hook file's state in a folder. */
export type HookFileState = 'absent' | 'ctx' | 'other';

/** Where ctx's hook and its command live. */
export interface HookPlace {
  readonly file: vscode.Uri;
  /** The hook file's text as ctx writes it now. */
  readonly text: string;
}

/** The hook file of a folder, with the text that runs this installation's script into `inbox`. */
export function hookPlace(folder: vscode.Uri, extensionUri: vscode.Uri, inbox: string): HookPlace {
  return {
    file: vscode.Uri.joinPath(folder, ...HOOK_FILE_PATH.split('/')),
    text: hookFileText({
      // The extension host's own executable runs the script: node here, the editor run as node on the desktop.
      runtime: process.execPath,
      script: vscode.Uri.joinPath(extensionUri, 'dist', HOOK_SCRIPT_NAME).fsPath,
      inbox,
    }),
  };
}

/** Whether the file is there, and whether it is ctx's. */
export async function hookFileState(file: vscode.Uri): Promise<{ state: HookFileState; text?: string }> {
  const text = await readText(file);
  if (text === undefined) return { state: 'absent' };
  return { state: isCtxHookFile(text) ? 'ctx' : 'other', text };
}

async function readText(file: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    return undefined;
  }
}
