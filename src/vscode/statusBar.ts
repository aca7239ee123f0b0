/**
 * One status-bar item rendered from one state value: the current session's level and usage, a spinning
 * icon while a compression runs, and in the tooltip the highest level of the last answer and the last
 * compression, so that the work ctx did between two glances stays visible.
 */
import * as vscode from 'vscode';
import { describeCompression, describePeak, formatCount } from '../engine/host/display';
import type { CompressionRecord, Peak } from '../engine/host/session';
import type { Level } from '../engine/host/settings';
import { COMMANDS } from './commandIds';
import type { SessionManager, SessionView } from './sessions';
import { onWorkspaceTrustGranted, restrictedModeLimits } from './workspaceTrust';

/** What the item shows; undefined when there is no @ctx session. */
export interface StatusBarState {
  readonly level: Level;
  readonly usage: number;
  readonly tokens: number;
  readonly budget: number;
  readonly estimated: boolean;
  readonly checkpointsMade: number;
  readonly checkpoints: number;
  /** The reliability score (design §9), 0..1. */
  readonly reliability: number;
  readonly reliabilityWarning?: string;
  readonly title: string;
  /** The highest point of the current or last answer. */
  readonly answerPeak?: Peak;
  readonly lastCompression?: CompressionRecord;
  /** Set while a compression runs: what it is doing. */
  readonly compressing?: string;
  /** What is off because the workspace is not trusted. */
  readonly restrictedMode?: readonly string[];
}

const LEVEL_ICONS: Readonly<Record<Level, string>> = {
  GREEN: '$(pass)',
  YELLOW: '$(eye)',
  ORANGE: '$(fold)',
  RED: '$(warning)',
  CRITICAL: '$(error)',
};

/** The icon while a compression runs. */
export const COMPRESSING_ICON = '$(sync~spin)';

export function statusBarState(view: SessionView | undefined, restrictedMode: readonly string[] = []): StatusBarState | undefined {
  if (!view) return undefined;
  const last = view.last;
  const reliability = view.session.reliability(view.model);
  return {
    level: last?.level ?? 'GREEN',
    usage: last?.usage ?? 0,
    tokens: last?.tokens ?? 0,
    budget: last?.budget ?? 0,
    estimated: last?.estimated ?? false,
    checkpointsMade: view.session.state.checkpointsMade,
    checkpoints: view.session.checkpoints.length,
    reliability: reliability.score,
    ...(reliability.warning ? { reliabilityWarning: reliability.warning } : {}),
    title: view.session.title,
    ...(view.answerPeak ? { answerPeak: view.answerPeak } : {}),
    ...(view.lastCompression ? { lastCompression: view.lastCompression } : {}),
    ...(view.compressing ? { compressing: view.compressing } : {}),
    ...(restrictedMode.length > 0 ? { restrictedMode } : {}),
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
  // Rounded down, as every level figure is: a percentage never reads as past a threshold its level has not reached.
  const pct = `${Math.floor(state.usage * 100)}%`;
  const icon = state.compressing ? COMPRESSING_ICON : LEVEL_ICONS[state.level];
  item.text = `${icon} ${state.estimated ? '~' : ''}${pct} ${state.level}${state.compressing ? ' · compressing' : ''}`;
  item.backgroundColor =
    state.level === 'CRITICAL'
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : state.level === 'RED'
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.isTrusted = { enabledCommands: [COMMANDS.compress, COMMANDS.showStatus, COMMANDS.showTree, COMMANDS.openDashboard] };
  tooltip.appendMarkdown(`**ctx · ${state.level}** — ${escape(state.title || 'current session')}\n\n`);
  if (state.compressing) tooltip.appendMarkdown(`${COMPRESSING_ICON} ${escape(state.compressing)}\n\n`);
  tooltip.appendMarkdown(
    `${formatCount(state.tokens)} / ${formatCount(state.budget)} tokens (${pct})${state.estimated ? ', estimated while the tokenizer loads' : ''}\n\n`,
  );
  if (state.answerPeak) {
    tooltip.appendMarkdown(`Highest level in the last answer: ${describePeak(state.answerPeak)}\n\n`);
  }
  if (state.lastCompression) {
    const at = new Date(state.lastCompression.at).toLocaleTimeString();
    tooltip.appendMarkdown(`Last compression: ${escape(`${at} · ${describeCompression(state.lastCompression)}`)}\n\n`);
  }
  tooltip.appendMarkdown(
    `Checkpoints: ${state.checkpoints} · checkpoints made so far: ${state.checkpointsMade} · reliability ${Math.round(state.reliability * 100)}%\n\n`,
  );
  if (state.reliabilityWarning) tooltip.appendMarkdown(`${escape(state.reliabilityWarning)}\n\n`);
  if (state.restrictedMode) {
    tooltip.appendMarkdown(
      `**Restricted Mode** (the workspace is not trusted):\n\n${state.restrictedMode.map((r) => `- ${escape(r)}`).join('\n')}\n\n`,
    );
  }
  const links = [
    `[$(dashboard) Dashboard](command:${COMMANDS.openDashboard})`,
    `[$(fold) Compress](command:${COMMANDS.compress})`,
    `[$(pulse) Status](command:${COMMANDS.showStatus})`,
    `[$(list-tree) Open tree](command:${COMMANDS.showTree})`,
  ];
  tooltip.appendMarkdown(links.join(' · '));
  item.tooltip = tooltip;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

export function registerStatusBar(context: vscode.ExtensionContext, sessions: SessionManager): void {
  const item = vscode.window.createStatusBarItem('ctx.level', vscode.StatusBarAlignment.Right, 100);
  item.name = 'ctx context level';
  const render = () => renderStatusBar(item, statusBarState(sessions.current, restrictedModeLimits()));
  render();
  item.show();
  context.subscriptions.push(item, sessions.onDidChange(render));
  onWorkspaceTrustGranted(render, context.subscriptions);
}
