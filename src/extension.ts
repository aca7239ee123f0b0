/** The composition root: creates the services and registers each part. Nothing else happens here. */
import * as vscode from 'vscode';
import { errorMessage } from './engine/host/display';
import { maskingLogger } from './engine/host/ports';
import { FileStore } from './engine/host/storage';
import { createApi, type CtxApi } from './vscode/api';
import { registerCommands } from './vscode/commands';
import { onDidChangeConfig, readConfig, type CtxConfig } from './vscode/config';
import { registerCopilotHook } from './vscode/copilotHook/registerCopilotHook';
import { registerCtxTools } from './vscode/ctxTools';
import { registerDashboard } from './vscode/dashboard/registerDashboard';
import { instructionFilesFor } from './vscode/instructionFiles';
import { registerParticipant } from './vscode/participant';
import { CallerResultFiles, callerStorageRoots } from './vscode/provider/callerResultFiles';
import { registerCtxModels } from './vscode/provider/registerCtxModels';
import { Recovery } from './vscode/recovery';
import { registerReportDocument } from './vscode/reportDocument';
import { registerSessionDocuments } from './vscode/sessionDocuments';
import { renderVirtualDocument } from './vscode/virtualDocuments';
import { SessionManager } from './vscode/sessions';
import { registerStatusBar } from './vscode/statusBar';
import { registerTree } from './vscode/tree';
import { VscodeWorkspaceFiles } from './vscode/workspaceFiles';
import { isWorkspaceTrusted, onWorkspaceTrustGranted, RESTRICTED_MODE_LIMITS, restrictedModeLimits } from './vscode/workspaceTrust';

export function activate(context: vscode.ExtensionContext): CtxApi | undefined {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel('ctx', { log: true });
  context.subscriptions.push(channel);
  // Tool output and messages pass through the log; credentials in them never reach it.
  const logger = maskingLogger(channel);
  try {
    let config: CtxConfig = readConfig();
    onDidChangeConfig(() => (config = readConfig()), context.subscriptions);
    // Settings VS Code kept from an untrusted workspace's settings apply once it is trusted.
    onWorkspaceTrustGranted(() => {
      config = readConfig();
      logger.info('The workspace is trusted now: instruction files are read and every tool is offered again.');
    }, context.subscriptions);
    config.problems.forEach((p) => void vscode.window.showWarningMessage(`ctx: ${p}`));

    // Workspace storage keeps sessions out of the user's repository; global storage when no folder is open.
    const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;
    const store = new FileStore(storageRoot);
    // Copilot Chat's own storage folders, beside ctx's: where its agent writes large tool results.
    const copilotStorage = callerStorageRoots([context.storageUri, context.globalStorageUri].flatMap((u) => (u ? [u.fsPath] : [])));
    const sessions = new SessionManager({
      store,
      files: new VscodeWorkspaceFiles(),
      // Copilot's agent writes large results into its own storage, beside ctx's: only there are they read.
      callerFiles: new CallerResultFiles(() => copilotStorage),
      logger,
      workerPath: vscode.Uri.joinPath(context.extensionUri, 'dist', 'tokenizerWorker.js').fsPath,
      config: () => config,
      restrictedMode: restrictedModeLimits,
    });
    context.subscriptions.push(sessions);
    const recovery = new Recovery(sessions);

    registerSessionDocuments(context, store, (path) => renderVirtualDocument(sessions, path));
    const report = registerReportDocument(context, async () => {
      const current = sessions.current;
      return current ? sessions.report(current.session) : 'No @ctx session yet. Ask @ctx something in the Chat view.';
    });
    registerParticipant(context, {
      sessions,
      recovery,
      config: () => config,
      logger,
      extensionUri: context.extensionUri,
      instructions: instructionFilesFor(logger, isWorkspaceTrusted),
    });
    const copilotHistory = registerCopilotHook(context, { sessions, logger, storageRoot, copilotStorage });
    registerCtxTools(context, { sessions, recovery, copilotHistory });
    registerCtxModels(context, { sessions, recovery, config: () => config, logger });
    registerStatusBar(context, sessions);
    registerTree(context, sessions);
    registerCommands(context, { sessions, report, recovery, logger, config: () => config });
    const dashboard = registerDashboard(context, { extensionUri: context.extensionUri, sessions, config: () => config, logger });
    const activationMs = performance.now() - started;
    // Reading the latest session happens after activation, so it never adds to it.
    setTimeout(
      () => void sessions.restoreLatest().catch((e: unknown) => logger.warn(`Could not restore the latest session: ${String(e)}`)),
      0,
    );
    logger.info(
      `ctx activated in ${activationMs.toFixed(2)} ms; sessions are stored in ${storageRoot}` +
        (isWorkspaceTrusted() ? '' : `; Restricted Mode: ${RESTRICTED_MODE_LIMITS.join(' ')}`),
    );
    return createApi({ storageRoot, sessions, activationMs, dashboard, config: () => config });
  } catch (e) {
    // VS Code stays silent about activation failures: say it.
    logger.error(e instanceof Error ? e : String(e));
    void vscode.window.showErrorMessage(`ctx could not start: ${errorMessage(e)}`);
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
