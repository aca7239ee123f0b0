/**
 * Seeing an information message in the real workbench. Toasts are not drawn while VS Code runs with
 * its smoke-test driver (1.139 needs it for the tests to load at all: `addToast` returns early), so a
 * test opens the notifications center, which lists every notification on every version, and reads it there.
 */
import * as vscode from 'vscode';
import { page, selectors } from './page';

/** Opens the notifications center and waits until it shows `text`; returns the text it matched. */
export async function seeNotification(text: string | RegExp, timeoutMs?: number): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  return page.waitForText(selectors.notifications, text, timeoutMs);
}

/** The text of every notification the center lists now. */
export async function notificationsShown(): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  return (await page.text(selectors.notifications)).join('\n');
}

/** Clears the notifications and closes the center, so the next test starts from a quiet workbench. */
export async function dismissNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
}
