/**
 * Session files (offloaded results, the archive, reports) open read-only through their own URI
 * scheme: they are a record of what happened, not something to edit.
 */
import * as vscode from 'vscode';
import type { Store } from '../engine/host/ports';

export const SESSION_FILE_SCHEME = 'ctx-session';

/** `ctx-session:/sessions/<id>/offloaded/<file>`: the store path, so the provider needs nothing else. */
export function sessionFileUri(storePath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SESSION_FILE_SCHEME, path: `/${storePath}` });
}

/** Documents that are not files: rendered on demand (a checkpoint's summary, for instance). */
export type VirtualDocuments = (path: string) => Promise<string | undefined>;

/** `ctx-session:/checkpoint/<session>/<checkpoint>.md`: a checkpoint rendered as Markdown. */
export function checkpointUri(sessionId: string, checkpointId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SESSION_FILE_SCHEME, path: `/${VIRTUAL_CHECKPOINT}/${sessionId}/${checkpointId}.md` });
}

export const VIRTUAL_CHECKPOINT = 'checkpoint';

/**
 * `ctx-session:/item/<session>/<item id>/<title>.md`: an item of a session's context, read-only. The editor's tab shows
 * the last segment, so it is the item's title in plain words ("Earlier lines.md"), not its encoded id.
 */
export function itemUri(sessionId: string, itemId: string, title: string): vscode.Uri {
  const name =
    title
      .replace(/[^\p{L}\p{N} .,·()_-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60) || 'item';
  return vscode.Uri.from({ scheme: SESSION_FILE_SCHEME, path: `/${VIRTUAL_ITEM}/${sessionId}/${encodeURIComponent(itemId)}/${name}.md` });
}

export const VIRTUAL_ITEM = 'item';

export function registerSessionDocuments(context: vscode.ExtensionContext, store: Store, virtual?: VirtualDocuments): void {
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const path = uri.path.replace(/^\/+/, '');
      const rendered = virtual ? await virtual(path) : undefined;
      if (rendered !== undefined) return rendered;
      const content = await store.read(path);
      return content ?? `This file no longer exists (${uri.path}). The session archive still has its content.`;
    },
  };
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SESSION_FILE_SCHEME, provider));
}

/** Opens a session file read-only, optionally at a line range (1-based). */
export async function openSessionFile(storePath: string, lines?: { start: number; end: number }): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(sessionFileUri(storePath));
  const selection = lines ? new vscode.Range(Math.max(0, lines.start - 1), 0, Math.max(0, lines.end - 1), 0) : undefined;
  await vscode.window.showTextDocument(doc, { preview: true, selection });
}
