/**
 * Restricted Mode. ctx works in an untrusted folder, with what could let the folder's content steer the
 * model or run code left off until the user trusts it:
 *
 * - the workspace's instruction files are not read into the ledger (`instructionFilesFor`), since the
 *   ledger is never summarized and goes into every request;
 * - @ctx offers the model only ctx's own tools (they read ctx's storage) and the tools the user attaches
 *   with `#` (`offeredTools`).
 *
 * Everything else only reads and writes ctx's own storage and stays on: compression, checkpoints,
 * snapshots, recovery, the status report. Tier 2 still reads back the files the session's own tool calls
 * wrote, to check they hold what was written: it only reads, and sends the model nothing from them.
 * Settings that choose tools or models are `restrictedConfigurations` in package.json: VS Code does not
 * take them from an untrusted workspace's settings.
 */
import * as vscode from 'vscode';

/** What is off in Restricted Mode, in the words of the status report and the status bar. */
export const RESTRICTED_MODE_LIMITS: readonly string[] = [
  "The workspace's instruction files (AGENTS.md, .github/copilot-instructions.md, .github/instructions) are not read into the ledger.",
  "@ctx offers the model only ctx's own tools and the tools you attach with #.",
];

/** Whether the workspace is trusted (always, when Workspace Trust is off). */
export function isWorkspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** What is off right now: nothing in a trusted workspace. */
export function restrictedModeLimits(): readonly string[] {
  return isWorkspaceTrusted() ? [] : RESTRICTED_MODE_LIMITS;
}

/** Calls `onGranted` when the user trusts the workspace (there is no way back without a reload). */
export function onWorkspaceTrustGranted(onGranted: () => void, disposables: vscode.Disposable[]): void {
  vscode.workspace.onDidGrantWorkspaceTrust(onGranted, undefined, disposables);
}
