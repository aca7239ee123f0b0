import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('ctx.showStatus', () => vscode.window.showInformationMessage('ctx: no session yet.')),
  );
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
