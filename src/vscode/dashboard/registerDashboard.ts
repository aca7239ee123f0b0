/** "Context: Open Dashboard": one dashboard panel per window, opened or brought forward by the command. */
import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import { DashboardPanel, type DashboardDeps } from './dashboardPanel';

/** The window's dashboard, if it is open. */
export interface Dashboard {
  readonly panel: DashboardPanel | undefined;
}

export function registerDashboard(context: vscode.ExtensionContext, deps: DashboardDeps): Dashboard {
  let panel: DashboardPanel | undefined;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.openDashboard, () => {
      if (panel) panel.reveal();
      else panel = new DashboardPanel(deps, () => (panel = undefined));
    }),
    { dispose: () => panel?.dispose() },
  );
  return {
    get panel() {
      return panel;
    },
  };
}
