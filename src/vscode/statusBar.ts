/** One status-bar item rendered from one state value: the current session's level and usage. */
import * as vscode from 'vscode';
import type { Level } from '../engine/levels';
import { COMMANDS } from './commandIds';
import type { SessionManager, SessionView } from './sessions';
import { formatCount } from '../engine/text/numbers';

/** What the item shows; undefined when there is no @ctx session. */
export interface StatusBarState {
  readonly level: Level;
  readonly usage: number;
  readonly tokens: number;
  readonly budget: number;
  readonly estimated: boolean;
  readonly compressions: number;
  readonly checkpoints: number;
  /** The reliability score (design §9), 0..1. */
  readonly reliability: number;
  readonly reliabilityWarning?: string;
  readonly title: string;
}

const LEVEL_ICONS: Readonly<Record<Level, string>> = {
  GREEN: '$(pass)',
  YELLOW: '$(eye)',
  ORANGE: '$(fold)',
  RED: '$(warning)',
  CRITICAL: '$(error)',
};

export function statusBarState(view: SessionView | undefined): StatusBarState | undefined {
  if (!view) return undefined;
  const last = view.last;
  const reliability = view.session.reliability(view.model);
  return {
    level: last?.level ?? 'GREEN',
    usage: last?.usage ?? 0,
    tokens: last?.tokens ?? 0,
    budget: last?.budget ?? 0,
    estimated: last?.estimated ?? false,
    compressions: view.session.state.compressions,
    checkpoints: view.session.checkpoints.length,
    reliability: reliability.score,
    ...(reliability.warning ? { reliabilityWarning: reliability.warning } : {}),
    title: view.session.title,
  };
}

export function renderStatusBar(item: vscode.StatusBarItem, state: StatusBarState | undefined): void {
  item.command = COMMANDS.showStatus;
  if (!state) {
    item.text = '$(pulse) ctx';
    item.tooltip = 'No @ctx session yet. Ask @ctx something in the Chat view.';
    item.backgroundColor = undefined;
    return;
  }
  const pct = `${Math.round(state.usage * 100)}%`;
  item.text = `${LEVEL_ICONS[state.level]} ${state.estimated ? '~' : ''}${pct} ${state.level}`;
  item.backgroundColor =
    state.level === 'CRITICAL'
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : state.level === 'RED'
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.isTrusted = { enabledCommands: [COMMANDS.compress, COMMANDS.showStatus, COMMANDS.showTree, COMMANDS.openDashboard] };
  tooltip.appendMarkdown(`**ctx · ${state.level}** — ${escape(state.title || 'current session')}\n\n`);
  tooltip.appendMarkdown(
    `${formatCount(state.tokens)} / ${formatCount(state.budget)} tokens (${pct})${state.estimated ? ', estimated while the tokenizer loads' : ''}\n\n`,
  );
  tooltip.appendMarkdown(
    `Checkpoints: ${state.checkpoints} · checkpoints made so far: ${state.compressions} · reliability ${Math.round(state.reliability * 100)}%\n\n`,
  );
  if (state.reliabilityWarning) tooltip.appendMarkdown(`${escape(state.reliabilityWarning)}\n\n`);
  tooltip.appendMarkdown(
    `[$(dashboard) Dashboard](command:${COMMANDS.openDashboard}) · [$(fold) Compress](command:${COMMANDS.compress}) · [$(pulse) Status](command:${COMMANDS.showStatus}) · [$(list-tree) Open tree](command:${COMMANDS.showTree})`,
  );
  item.tooltip = tooltip;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

export function registerStatusBar(context: vscode.ExtensionContext, sessions: SessionManager): void {
  const item = vscode.window.createStatusBarItem('ctx.level', vscode.StatusBarAlignment.Right, 100);
  item.name = 'ctx context level';
  const render = () => renderStatusBar(item, statusBarState(sessions.current));
  render();
  item.show();
  context.subscriptions.push(item, sessions.onDidChange(render));
}
