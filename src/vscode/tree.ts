/** The "Context" tree: each session with its ledger, checkpoints, snapshots and offloaded results. */
import * as vscode from 'vscode';
import {
  AGE_LABELS,
  type Checkpoint,
  counted,
  formatCount,
  type Ledger,
  type OffloadRecord,
  shortenEnd,
  type SnapshotSummary,
} from '../engine/host/display';
import { COMMANDS, TREE_VIEW_ID } from './commandIds';
import { checkpointUri, sessionFileUri } from './sessionDocuments';
import type { SessionManager, StoredSessionSummary } from './sessions';
import { TreeRefreshGate } from './treeRefresh';

type GroupName = 'ledger' | 'checkpoints' | 'snapshots' | 'offloaded';
type LedgerKind = 'instructions' | 'goal' | 'decision' | 'artifact';

export type ContextNode =
  | { readonly kind: 'session'; readonly session: StoredSessionSummary; readonly current: boolean }
  | { readonly kind: 'group'; readonly sessionId: string; readonly group: GroupName; readonly count: number }
  | {
      readonly kind: 'ledgerEntry';
      readonly sessionId: string;
      readonly entry: LedgerKind;
      readonly text: string;
      readonly detail: string;
      /** Markdown shown on hover, when there is more to say than `text`. */
      readonly tooltip?: string;
    }
  | { readonly kind: 'checkpoint'; readonly sessionId: string; readonly checkpoint: Checkpoint; readonly index: number }
  | { readonly kind: 'snapshot'; readonly sessionId: string; readonly snapshot: SnapshotSummary }
  | { readonly kind: 'offloaded'; readonly sessionId: string; readonly record: OffloadRecord; readonly path: string };

const GROUPS: Readonly<Record<GroupName, { label: string; icon: string }>> = {
  ledger: { label: 'Ledger', icon: 'book' },
  checkpoints: { label: 'Checkpoints', icon: 'layers' },
  snapshots: { label: 'Snapshots', icon: 'device-camera' },
  offloaded: { label: 'Offloaded results', icon: 'file-symlink-file' },
};

const LEDGER_ICONS: Readonly<Record<LedgerKind, string>> = { instructions: 'law', goal: 'target', decision: 'lock', artifact: 'file-code' };

export class ContextTreeProvider implements vscode.TreeDataProvider<ContextNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ContextNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** Set once the view exists: until then VS Code has fetched nothing to refresh. */
  private gate: TreeRefreshGate | undefined;

  constructor(private readonly sessions: SessionManager) {}

  /** Refreshes through `gate` from now on: only when what the view shows has changed, and only while it is visible. */
  attach(view: vscode.TreeView<ContextNode>): vscode.Disposable {
    const gate = new TreeRefreshGate({ shownText: () => this.shownText(), refresh: () => this.changed.fire(undefined) }, view.visible);
    this.gate = gate;
    const visibility = view.onDidChangeVisibility((e) => gate.visibilityChanged(e.visible));
    return new vscode.Disposable(() => {
      visibility.dispose();
      gate.dispose();
      if (this.gate === gate) this.gate = undefined;
    });
  }

  /** A session changed: the view is fetched again if what it shows differs. */
  refresh(): void {
    if (this.gate) this.gate.changed();
    else this.changed.fire(undefined);
  }

  async getChildren(node?: ContextNode): Promise<ContextNode[]> {
    if (!node) this.gate?.rootsFetched();
    return this.children(node);
  }

  private async children(node?: ContextNode): Promise<ContextNode[]> {
    if (!node) {
      const currentId = this.sessions.current?.session.id;
      return (await this.sessions.list()).map((session) => ({ kind: 'session', session, current: session.id === currentId }));
    }
    if (node.kind === 'session') return this.groups(node.session.id);
    if (node.kind !== 'group') return [];
    const session = await this.sessions.get(node.sessionId);
    if (!session) return [];
    const sessionId = node.sessionId;
    switch (node.group) {
      case 'ledger':
        return ledgerEntries(sessionId, session.ledger);
      case 'checkpoints':
        return session.checkpoints.map((checkpoint, index) => ({ kind: 'checkpoint' as const, sessionId, checkpoint, index })).reverse();
      case 'snapshots':
        return (await session.listSnapshots()).map((snapshot) => ({ kind: 'snapshot' as const, sessionId, snapshot }));
      case 'offloaded':
        return [...session.offloads]
          .reverse()
          .map((record) => ({ kind: 'offloaded' as const, sessionId, record, path: this.sessions.store.locate(record.file) }));
    }
  }

  getTreeItem(node: ContextNode): vscode.TreeItem {
    switch (node.kind) {
      case 'session': {
        const item = new vscode.TreeItem(
          node.session.title || node.session.id,
          node.current ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        // A session that becomes the current one is a new item to VS Code, so it opens expanded rather than keeping the
        // collapsed state it was first shown in.
        item.id = `session:${node.session.id}:${node.current ? 'current' : 'past'}`;
        item.description = node.current ? 'current' : new Date(node.session.updatedAt).toLocaleString();
        item.tooltip = `Session ${node.session.id}`;
        item.iconPath = new vscode.ThemeIcon(node.current ? 'comment-discussion' : 'history');
        item.contextValue = 'session';
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(
          GROUPS[node.group].label,
          node.count > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        // A group that gains its first item is a new item to VS Code, so it opens expanded rather than keeping the empty state.
        item.id = `${node.group}:${node.sessionId}:${node.count > 0 ? 'filled' : 'empty'}`;
        item.description = String(node.count);
        item.iconPath = new vscode.ThemeIcon(GROUPS[node.group].icon);
        item.contextValue = `group-${node.group}`;
        return item;
      }
      case 'ledgerEntry': {
        const item = new vscode.TreeItem(shortenEnd(node.text, 80), vscode.TreeItemCollapsibleState.None);
        item.id = `ledger:${node.sessionId}:${node.entry}:${node.text}`;
        item.description = node.detail;
        item.tooltip = node.tooltip ? new vscode.MarkdownString(node.tooltip) : node.text;
        item.iconPath = new vscode.ThemeIcon(LEDGER_ICONS[node.entry]);
        item.contextValue = node.entry;
        return item;
      }
      case 'checkpoint': {
        const c = node.checkpoint;
        const item = new vscode.TreeItem(`Checkpoint ${node.index + 1} · ${c.range}`, vscode.TreeItemCollapsibleState.None);
        item.id = `checkpoint:${node.sessionId}:${c.id}`;
        item.description = `${AGE_LABELS[c.age]} · ${formatCount(c.currentTokens)} tokens`;
        item.tooltip = new vscode.MarkdownString(
          `**Checkpoint ${node.index + 1}** (${AGE_LABELS[c.age]}), ${c.range}\n\n` +
            `${formatCount(c.originalTokens)} tokens → ${formatCount(c.currentTokens)}; compressed ${c.compressionCount}× · summarized by ${c.summarizedBy}`,
        );
        item.iconPath = new vscode.ThemeIcon('layers');
        item.resourceUri = checkpointUri(node.sessionId, c.id);
        item.contextValue = 'checkpoint';
        item.command = { command: COMMANDS.openCheckpoint, title: 'Open', arguments: [node] };
        return item;
      }
      case 'snapshot': {
        const s = node.snapshot;
        const item = new vscode.TreeItem(s.name, vscode.TreeItemCollapsibleState.None);
        item.id = `snapshot:${node.sessionId}:${s.id}`;
        item.description = s.readable ? `${new Date(s.at).toLocaleTimeString()} · ${formatCount(s.tokens)} tokens` : 'unreadable';
        item.tooltip = s.readable
          ? `${counted(s.messageCount, 'message')}, ${counted(s.checkpointCount, 'checkpoint')}`
          : 'This snapshot file could not be read back.';
        item.iconPath = new vscode.ThemeIcon(s.readable ? 'device-camera' : 'warning');
        item.contextValue = s.readable ? 'snapshot' : 'snapshot-unreadable';
        return item;
      }
      case 'offloaded': {
        const name = node.record.file.split('/').pop() ?? node.record.file;
        const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
        item.id = `offloaded:${node.sessionId}:${node.record.file}`;
        item.description = `${node.record.toolName} · ${formatCount(node.record.savedTokens)} tokens saved`;
        item.tooltip = new vscode.MarkdownString(
          `**${node.record.toolName}** ${node.record.isError ? 'error' : 'result'}, ${formatCount(node.record.tokens)} tokens` +
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

  /** The roots and the current session's items as text (id, label, description): equal texts, equal views. */
  private async shownText(): Promise<string> {
    const lines: string[] = [];
    const walk = async (node: ContextNode | undefined, depth: number): Promise<void> => {
      for (const child of await this.children(node)) {
        const item = this.getTreeItem(child);
        const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
        lines.push(`${depth} ${item.id ?? ''} ${label} ${typeof item.description === 'string' ? item.description : ''}`);
        if ((child.kind === 'session' && child.current) || child.kind === 'group') await walk(child, depth + 1);
      }
    };
    await walk(undefined, 0);
    return lines.join('\n');
  }

  private async groups(sessionId: string): Promise<ContextNode[]> {
    const session = await this.sessions.get(sessionId);
    if (!session) return [];
    const snapshots = await session.listSnapshots().catch(() => []);
    const counts: Readonly<Record<GroupName, number>> = {
      ledger: ledgerEntries(sessionId, session.ledger).length,
      checkpoints: session.checkpoints.length,
      snapshots: snapshots.length,
      offloaded: session.offloads.length,
    };
    return (Object.keys(GROUPS) as GroupName[]).map((group) => ({ kind: 'group', sessionId, group, count: counts[group] }));
  }
}

/** The workspace's instruction files, goals, locked decisions and the artifacts (files created or edited, `[ARTIFACT]` lines). */
function ledgerEntries(sessionId: string, ledger: Ledger): ContextNode[] {
  const entries: ContextNode[] = [];
  for (const i of ledger.instructions ?? []) {
    entries.push({
      kind: 'ledgerEntry',
      sessionId,
      entry: 'instructions',
      text: i.path,
      detail: i.applyTo ? `instructions · ${i.applyTo.join(', ')}` : 'instructions',
      tooltip: `**${i.path}**, kept verbatim in every request:\n\n${fenced(i.text.length > 1500 ? `${i.text.slice(0, 1500)}…` : i.text)}`,
    });
  }
  for (const g of ledger.goals) {
    entries.push({
      kind: 'ledgerEntry',
      sessionId,
      entry: 'goal',
      text: g.text,
      detail: g.status === 'completed' ? 'goal · completed' : 'goal',
    });
  }
  for (const d of ledger.decisions) {
    entries.push({ kind: 'ledgerEntry', sessionId, entry: 'decision', text: d.text, detail: 'locked decision' });
  }
  for (const f of ledger.tools.files) {
    const changes = f.actions.filter((a) => a !== 'read');
    if (changes.length > 0) entries.push({ kind: 'ledgerEntry', sessionId, entry: 'artifact', text: f.path, detail: changes.join(', ') });
  }
  for (const a of ledger.artifacts) entries.push({ kind: 'ledgerEntry', sessionId, entry: 'artifact', text: a, detail: 'artifact' });
  return entries;
}

/** Text shown as it is inside a Markdown tooltip: a fence longer than any backtick run in it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

export function registerTree(context: vscode.ExtensionContext, sessions: SessionManager): ContextTreeProvider {
  const provider = new ContextTreeProvider(sessions);
  const view = vscode.window.createTreeView(TREE_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(
    provider,
    view,
    provider.attach(view),
    sessions.onDidChange(() => provider.refresh()),
  );
  return provider;
}
