/**
 * Gets the Chat view past VS Code's first-run chat setup before any test uses it. VS Code 1.139 ships Copilot
 * Chat built in, disabled until "chat setup" completes; offline and signed out, with `chat.allowAnonymousAccess`
 * (set by the harness before the first start), the first chat request completes that setup and gets only "Please
 * try again" instead of an answer. Older releases have no built-in Copilot: the stand-in default participant answers
 * it at once.
 */
import * as vscode from 'vscode';
import { page, selectors } from './page';

/** What the first request shows once it is done: the stand-in default participant's answer, or the setup's request to retry. */
const FIRST_REQUEST_DONE = /You said: chat setup|try again/i;

/** Sends one plain request and waits until it is done, then opens a new, empty chat. */
export async function completeChatSetup(timeoutMs = 30000): Promise<void> {
  if (!page.available) return;
  if (!vscode.workspace.isTrusted) {
    // In Restricted Mode 1.139's setup asks for trust in a dialog (refused under the smoke-test driver) and never
    // completes, so no plain request is sent. The models are resolved instead, which the first request would
    // otherwise do: a request sent before that gets "Language model unavailable".
    await vscode.lm.selectChatModels();
    return;
  }
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: 'chat setup' });
  await page.waitForText(selectors.chatResponses, FIRST_REQUEST_DONE, timeoutMs);
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
}
