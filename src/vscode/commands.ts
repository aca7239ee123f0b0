/** The palette commands, as a table: each parses its arguments, calls the engine, shows the result. */
import * as vscode from 'vscode';
import { counted, errorMessage, formatCount, summarizeCompression } from '../engine/host/display';
import type { Logger } from '../engine/host/ports';
import { compressReported, measureReported } from '../engine/host/session';
import { SESSION_LOG_FILE } from '../engine/host/storage';
import { COMMANDS, TREE_VIEW_ID } from './commandIds';
import type { Recovery } from './recovery';
import type { ReportDocument } from './reportDocument';
import { summarizerFor } from './modelSummarizer';
import type { CtxConfig } from './config';
import { checkpointUri, openSessionFile } from './sessionDocuments';
import type { SessionManager } from './sessions';
import { openFreshChat } from './slashCommands';
import type { ContextNode } from './tree';

export interface CommandDeps {
  readonly sessions: SessionManager;
  readonly report: ReportDocument;
  readonly recovery: Recovery;
  readonly logger: Logger;
  readonly config: () => CtxConfig;
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
const isCheckpointNode = (v: unknown): v is Extract<ContextNode, { kind: 'checkpoint' }> =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'checkpoint';
const isSnapshotNode = (v: unknown): v is Extract<ContextNode, { kind: 'snapshot' }> =>
  typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'snapshot';

/** The session a command acts on: the one its tree node or argument names, else the current one. */
async function targetSession(sessions: SessionManager, arg: unknown) {
  const id = isSessionNode(arg)
    ? arg.session.id
    : isSnapshotNode(arg) || isCheckpointNode(arg)
      ? arg.sessionId
      : typeof arg === 'string'
        ? arg
        : undefined;
  return id ? await sessions.get(id) : sessions.current?.session;
}

const handlers: Readonly<Record<string, Handler>> = {
  [COMMANDS.compress]: async ({ sessions, config }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    const summarizer = await summarizerFor(config().summarizerModel, undefined);
    const prepared = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Compressing context', cancellable: true },
      (progress, token) =>
        compressReported(
          sessions.emit,
          current.session,
          () =>
            current.session.compress(sessions.lastBudget(current.session), {
              ...(summarizer ? { summarizer } : {}),
              cancellation: token,
              progress: (message) => progress.report({ message }),
            }),
          'Compressing the context…',
        ),
    );
    return tell(summarizeCompression(prepared).split('\n')[0]);
  },

  [COMMANDS.addGoal]: async ({ sessions }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    const text = await vscode.window.showInputBox({
      prompt: 'A goal for this session. Goals are kept verbatim in every request and never summarized.',
      ignoreFocusOut: true,
    });
    if (text?.trim()) await current.session.addGoal(text.trim());
    return undefined;
  },

  [COMMANDS.addDecision]: async ({ sessions }) => {
    const current = sessions.current;
    if (!current) return tell(NO_SESSION);
    const text = await vscode.window.showInputBox({
      prompt: 'A decision to lock. Locked decisions are kept verbatim in every request and never summarized.',
      ignoreFocusOut: true,
    });
    if (text?.trim()) await current.session.addDecision(text.trim());
    return undefined;
  },

  [COMMANDS.snapshot]: async ({ sessions }, arg) => {
    const session = await targetSession(sessions, arg);
    if (!session) return tell(NO_SESSION);
    const name =
      typeof arg === 'string'
        ? undefined
        : await vscode.window.showInputBox({ prompt: 'Name the snapshot (optional)', ignoreFocusOut: true });
    if (name === undefined && typeof arg !== 'string') return undefined;
    const snapshot = await session.createSnapshot(name?.trim() || undefined);
    return snapshot ? tell(`Snapshot "${snapshot.name}" saved.`) : undefined;
  },

  [COMMANDS.restoreSnapshot]: async ({ sessions }, arg) => {
    const session = await targetSession(sessions, arg);
    if (!session) return tell(NO_SESSION);
    let id = isSnapshotNode(arg) ? arg.snapshot.id : undefined;
    if (!id) {
      const snapshots = (await session.listSnapshots()).filter((s) => s.readable);
      if (snapshots.length === 0) return tell('This session has no snapshots yet.');
      const chosen = await vscode.window.showQuickPick(
        snapshots.map((s) => ({
          label: s.name,
          description: new Date(s.at).toLocaleString(),
          detail: `${formatCount(s.tokens)} tokens, ${counted(s.messageCount, 'message')}, ${counted(s.checkpointCount, 'checkpoint')}`,
          id: s.id,
        })),
        { placeHolder: 'Restore which snapshot? The current state is saved as a snapshot first.' },
      );
      id = chosen?.id;
    }
    if (!id) return undefined;
    const restored = await session.restoreSnapshot(id);
    if (restored) await measureReported(sessions.emit, session, sessions.lastBudget(session));
    return tell(
      restored ? `Restored "${restored.name}". The state before it was saved as a snapshot.` : 'That snapshot could not be read.',
    );
  },

  [COMMANDS.freshSession]: async ({ sessions, config, logger }, arg) => {
    const session = await targetSession(sessions, arg);
    if (!session) return tell(NO_SESSION);
    const summarizer = await summarizerFor(config().summarizerModel, undefined);
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Checkpointing the session for a fresh start', cancellable: true },
      async (progress, token) => {
        await session.checkpointEverything(sessions.lastBudget(session), {
          ...(summarizer ? { summarizer } : {}),
          cancellation: token,
          progress: (message) => progress.report({ message }),
        });
        if (token.isCancellationRequested) return;
        const fresh = await sessions.startFresh(session);
        openFreshChat(fresh.id, logger);
      },
    );
    return undefined;
  },

  [COMMANDS.openCheckpoint]: async (_deps, node) => {
    if (!isCheckpointNode(node)) return;
    const doc = await vscode.workspace.openTextDocument(checkpointUri(node.sessionId, node.checkpoint.id));
    await vscode.window.showTextDocument(doc, { preview: true });
  },

  [COMMANDS.openSessionLog]: async ({ sessions }, arg) => {
    const session = await targetSession(sessions, arg);
    if (!session) return tell(NO_SESSION);
    return openSessionFile(`${session.paths.folder}/${SESSION_LOG_FILE}`);
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
          void vscode.window.showErrorMessage(`ctx: ${errorMessage(e)}`);
          return undefined;
        }
      }),
    );
  }
}
