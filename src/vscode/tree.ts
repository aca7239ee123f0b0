/** The "Context" tree: each session with its offloaded results, checkpoints and snapshots. */
import * as vscode from 'vscode';
import type { OffloadRecord } from '../engine/tiers/offload';
import { COMMANDS, TREE_VIEW_ID } from './commandIds';
import { sessionFileUri } from './sessionDocuments';
import type { SessionManager, StoredSessionSummary } from './sessions';

export type ContextNode =
  | { readonly kind: 'session'; readonly session: StoredSessionSummary; readonly current: boolean }
  | { readonly kind: 'group'; readonly sessionId: string; readonly group: 'offloaded' | 'checkpoints' | 'snapshots'; readonly count: number }
  | { readonly kind: 'offloaded'; readonly sessionId: string; readonly record: OffloadRecord; readonly path: string };

const GROUP_LABELS = { offloaded: 'Offloaded results', checkpoints: 'Checkpoints', snapshots: 'Snapshots' } as const;

export class ContextTreeProvider implements vscode.TreeDataProvider<ContextNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ContextNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly sessions: SessionManager) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(node?: ContextNode): Promise<ContextNode[]> {
    if (!node) {
      const currentId = this.sessions.current?.session.id;
      return (await this.sessions.list()).map((session) => ({ kind: 'session', session, current: session.id === currentId }));
    }
    if (node.kind === 'session') {
      const session = await this.sessions.get(node.session.id);
      return [{ kind: 'group', sessionId: node.session.id, group: 'offloaded', count: session?.offloads.length ?? 0 }];
    }
    if (node.kind === 'group' && node.group === 'offloaded') {
      const session = await this.sessions.get(node.sessionId);
      return [...(session?.offloads ?? [])].reverse().map((record) => ({ kind: 'offloaded', sessionId: node.sessionId, record, path: this.sessions.store.locate(record.file) }));
    }
    return [];
  }

  getTreeItem(node: ContextNode): vscode.TreeItem {
    switch (node.kind) {
      case 'session': {
        const item = new vscode.TreeItem(node.session.title || node.session.id, node.current ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `session:${node.session.id}`;
        item.description = node.current ? 'current' : new Date(node.session.updatedAt).toLocaleString();
        item.tooltip = `Session ${node.session.id}`;
        item.iconPath = new vscode.ThemeIcon(node.current ? 'comment-discussion' : 'history');
        item.contextValue = 'session';
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(GROUP_LABELS[node.group], node.count > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        item.id = `${node.group}:${node.sessionId}`;
        item.description = String(node.count);
        item.iconPath = new vscode.ThemeIcon('file-symlink-file');
        item.contextValue = 'group';
        return item;
      }
      case 'offloaded': {
        const name = node.record.file.split('/').pop() ?? node.record.file;
        const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
        item.id = `offloaded:${node.sessionId}:${node.record.file}`;
        item.description = `${node.record.toolName} · ${node.record.savedTokens.toLocaleString('en-US')} tokens saved`;
        item.tooltip = new vscode.MarkdownString(
          `**${node.record.toolName}** ${node.record.isError ? 'error' : 'result'}, ${node.record.tokens.toLocaleString('en-US')} tokens` +
            `${node.record.estimated ? ' (estimated)' : ''}\n\n\`${node.path}\``,
        );
        item.iconPath = new vscode.ThemeIcon(node.record.isError ? 'error' : 'file-text');
        item.resourceUri = sessionFileUri(node.record.file);
        item.contextValue = 'offloaded';
        item.command = { command: COMMANDS.openOffloaded, title: 'Open', arguments: [node] };
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerTree(context: vscode.ExtensionContext, sessions: SessionManager): ContextTreeProvider {
  const provider = new ContextTreeProvider(sessions);
  const view = vscode.window.createTreeView(TREE_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(provider, view, sessions.onDidChange(() => provider.refresh()));
  return provider;
}
