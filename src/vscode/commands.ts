/** The palette commands, as a table: each parses its arguments, calls the engine, shows the result. */
import * as vscode from 'vscode';
import type { Logger } from '../engine/ports';
import { COMMANDS, TREE_VIEW_ID } from './commandIds';
import { summarizeCompression } from './compressionSummary';
import type { Recovery } from './recovery';
import type { ReportDocument } from './reportDocument';
import { openSessionFile } from './sessionDocuments';
import type { SessionManager } from './sessions';
import type { ContextNode } from './tree';

export interface CommandDeps {
  readonly sessions: SessionManager;
  readonly report: ReportDocument;
  readonly recovery: Recovery;
  readonly logger: Logger;
}

const NO_SESSION = 'There is no @ctx session yet. Ask @ctx something in the Chat view first.';

/** Notifications resolve only when dismissed: commands show them without waiting. */
function tell(message: string): undefined {
  void vscode.window.showInformationMessage(message);
  return undefined;
}

type Handler = (deps: CommandDeps, ...args: unknown[]) => Promise<unknown>;

const isOffloadedNode = (v: unknown): v is Extract<ContextNode, { kind: 'offloaded' }> =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'offloaded';
const isSessionNode = (v: unknown): v is Extract<ContextNode, { kind: 'session' }> =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'session';

const handlers: Readonly<Record<string, Handler>> = {
  [COMMANDS.compress]: async ({ sessions }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    const prepared = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Compressing context…' }, () =>
      current.session.compress(sessions.lastBudget(current.session)),
    );
    sessions.recordPrepared(current.session, prepared);
    return tell(summarizeCompression(prepared).split('\n')[0]);
  },

  [COMMANDS.showStatus]: async ({ sessions, report }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    return report.show(await sessions.report(current.session));
  },

  [COMMANDS.recover]: async ({ sessions, recovery }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    return recovery.pick(current.session.id);
  },

  [COMMANDS.openArchive]: async ({ sessions }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    return openSessionFile(current.session.paths.archive);
  },

  [COMMANDS.clearSession]: async ({ sessions }, node) => {
    const id = isSessionNode(node) ? node.session.id : sessions.current?.session.id;
    if (!id) return tell(NO_SESSION);
    const answer = await vscode.window.showWarningMessage(
      'Clear this @ctx session? Its archive, offloaded results and state are deleted from workspace storage.',
      { modal: true },
      'Clear session',
    );
    if (answer === 'Clear session') await sessions.clear(id);
    return undefined;
  },

  [COMMANDS.showTree]: async () => vscode.commands.executeCommand(`${TREE_VIEW_ID}.focus`),

  [COMMANDS.openOffloaded]: async (_deps, node) => {
    if (isOffloadedNode(node)) await openSessionFile(node.record.file);
  },

  [COMMANDS.revealOffloaded]: async (_deps, node) => {
    if (!isOffloadedNode(node)) return;
    try {
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(node.path));
    } catch {
      tell(`The file is at ${node.path}`);
    }
  },

  [COMMANDS.copyPath]: async (_deps, node) => {
    if (isOffloadedNode(node)) await vscode.env.clipboard.writeText(node.path);
  },

  [COMMANDS.deleteOffloaded]: async ({ sessions }, node) => {
    if (!isOffloadedNode(node)) return;
    const answer = await vscode.window.showWarningMessage(
      `Delete ${node.record.file.split('/').pop()}? The context keeps its preview and the session archive keeps the full result.`,
      { modal: true },
      'Delete',
    );
    if (answer === 'Delete') await (await sessions.get(node.sessionId))?.deleteOffloaded(node.record.file);
  },
};

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(deps, ...args);
        } catch (e) {
          deps.logger.error(e instanceof Error ? e : String(e));
          void vscode.window.showErrorMessage(`ctx: ${e instanceof Error ? e.message : String(e)}`);
          return undefined;
        }
      }),
    );
  }
}
