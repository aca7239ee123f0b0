import * as vscode from 'vscode';
import type { WorkspaceFiles } from '../engine/host/ports';

/** Files larger than this are not compared: a write of that size would not have been kept in context anyway. */
const MAX_COMPARED_BYTES = 20 * 1024 * 1024;

/**
 * Reads the user's files for tier 2's "is it really on disk?" check. Relative paths resolve
 * against each workspace folder in turn.
 */
export class VscodeWorkspaceFiles implements WorkspaceFiles {
  async readText(path: string): Promise<string | undefined> {
    for (const uri of candidates(path)) {
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type !== vscode.FileType.File || stat.size > MAX_COMPARED_BYTES) continue;
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        // Not there: try the next folder.
      }
    }
    return undefined;
  }
}

function candidates(path: string): vscode.Uri[] {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(path)) return [vscode.Uri.parse(path)];
  if (path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path)) return [vscode.Uri.file(path)];
  return (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, path));
}
