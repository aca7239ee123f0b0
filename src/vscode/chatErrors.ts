/** Errors from the model or the tools, in words a user can act on. */
import * as vscode from 'vscode';
import { errorMessage } from '../engine/host/display';

export function explainModelError(e: unknown): string {
  if (e instanceof vscode.LanguageModelError) {
    switch (e.code) {
      case vscode.LanguageModelError.NoPermissions.name:
        return (
          'The language model refused the request: this extension has no permission to use it. ' +
          'Allow ctx to use the model when VS Code asks, or pick another model.'
        );
      case vscode.LanguageModelError.Blocked.name:
        return 'The language model blocked the request (quota or content filter). Wait a moment or rephrase, then ask again.';
      case vscode.LanguageModelError.NotFound.name:
        return 'The selected language model is not available any more. Pick another model in the Chat view and ask again.';
      default:
        return `The language model failed: ${e.message}`;
    }
  }
  if (e instanceof vscode.CancellationError) return 'Stopped.';
  return `Something went wrong while talking to the model: ${errorMessage(e)}`;
}

/** Said after every failure: the user must know nothing is gone. */
export const NOTHING_LOST = 'The conversation and its archive are intact: ask again to continue where it stopped.';
