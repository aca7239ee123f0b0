/**
 * The dashboard's webview panel for the current session (whatever made it: `@ctx`, or a ctx model
 * through `SessionManager.current`). It renders the page once, then, as the session changes, at
 * most every `REFRESH_MS` it builds the engine's model again and posts only the parts whose HTML
 * changed. What the user does on the page comes back as messages, checked, and goes to the session.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage, parseItemId } from '../../engine/host/display';
import type { Logger } from '../../engine/host/ports';
import { type ContextSession, type EditOutcome, measureReported } from '../../engine/host/session';
import { answerReserveBeside } from '../../engine/host/settings';
import { COMMANDS } from '../commandIds';
import type { CtxConfig } from '../config';
import { summarizerFor } from '../modelSummarizer';
import { checkpointUri, itemUri } from '../sessionDocuments';
import type { SessionManager } from '../sessions';
import { dashboardPage } from './dashboardPage';
import { isWebviewMessage, type DashboardAction, type HostMessage } from './dashboardProtocol';
import { changedSections, renderSections, type Sections } from './dashboardSections';
import { escapeHtml } from './html';
import type { PreviewState } from './sections/previewHtml';

export const DASHBOARD_VIEW_TYPE = 'ctx.dashboard';

/** Live updates come at most this often: a burst of changes (a turn's steps) is one update. */
const REFRESH_MS = 150;
/** Items listed at first, and added by each "Show more". */
const ITEM_PAGE = 100;
/** Random bytes of a page's script nonce: enough that nothing can guess it. */
const NONCE_BYTES = 18;

export interface DashboardDeps {
  readonly extensionUri: vscode.Uri;
  readonly sessions: SessionManager;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
}

export class DashboardPanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly opened = performance.now();
  private shown: Sections | undefined;
  private preview: PreviewState = { kind: 'none' };
  private previewCancel: vscode.CancellationTokenSource | undefined;
  private itemLimit = ITEM_PAGE;
  private timer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private again = false;
  private disposed = false;
  /** Milliseconds from opening the panel to the first render painted in the webview. */
  firstPaintMs: number | undefined;

  constructor(
    private readonly deps: DashboardDeps,
    onDispose: () => void,
  ) {
    const media = vscode.Uri.joinPath(deps.extensionUri, 'media');
    const dist = vscode.Uri.joinPath(deps.extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel(DASHBOARD_VIEW_TYPE, 'Context Dashboard', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media, dist],
    });
    this.panel.iconPath = vscode.Uri.joinPath(media, 'context.svg');
    this.panel.onDidDispose(
      () => {
        this.dispose();
        onDispose();
      },
      undefined,
      this.disposables,
    );
    this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m), undefined, this.disposables);
    // A hidden webview loses its page; shown again, it gets the page as it is now.
    let visible = true;
    this.panel.onDidChangeViewState(
      (e) => {
        if (e.webviewPanel.visible && !visible) this.showPage();
        visible = e.webviewPanel.visible;
      },
      undefined,
      this.disposables,
    );
    deps.sessions.onDidChange(() => this.schedule(), undefined, this.disposables);
    this.showPage();
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    this.previewCancel?.cancel();
    this.previewCancel?.dispose();
    this.disposables.forEach((d) => d.dispose());
    this.panel.dispose();
  }

  /** Renders the page whole; a failure is logged and shown in the panel, never thrown. */
  private showPage(): void {
    this.renderPage().catch((e: unknown) => {
      this.deps.logger.error(`The dashboard could not be rendered: ${errorMessage(e)}`);
      if (!this.disposed) {
        this.panel.webview.html = `<!DOCTYPE html><p>The dashboard could not be rendered: ${escapeHtml(errorMessage(e))}. Nothing was lost.</p>`;
      }
    });
  }

  /** The page, whole, with every part rendered. */
  private async renderPage(): Promise<void> {
    const sections = await this.sections();
    if (this.disposed) return;
    const webview = this.panel.webview;
    const asset = (folder: string, file: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, folder, file)).toString();
    webview.html = dashboardPage(sections, {
      cspSource: webview.cspSource,
      scriptUri: asset('dist', 'dashboard.js'),
      styleUri: asset('media', 'dashboard.css'),
      nonce: randomBytes(NONCE_BYTES).toString('base64url'),
    });
    this.shown = sections;
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, REFRESH_MS);
  }

  /** Builds the model again and posts the parts that changed; one refresh at a time, the latest change last. */
  private async refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    try {
      const next = await this.sections();
      const changed = changedSections(this.shown, next);
      if (Object.keys(changed).length > 0 && !this.disposed) {
        await this.post({ type: 'sections', sections: changed });
        this.shown = next;
      }
    } catch (e) {
      this.deps.logger.warn(`The dashboard could not be updated: ${errorMessage(e)}`);
    } finally {
      this.refreshing = false;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }

  private async sections(): Promise<Sections> {
    const current = this.deps.sessions.current;
    const config = this.deps.config();
    if (!current) return renderSections(undefined, this.preview, config.engine.thresholds);
    const budget = this.deps.sessions.lastBudget(current.session);
    const model = await current.session.dashboard({
      budget,
      reserveTokens: answerReserveBeside(budget, config.answerReserveTokens),
      itemLimit: this.itemLimit,
    });
    return renderSections(model, this.preview, config.engine.thresholds);
  }

  private post(message: HostMessage): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private notice(text: string): void {
    void this.post({ type: 'notice', text });
  }

  private async receive(message: unknown): Promise<void> {
    if (!isWebviewMessage(message)) {
      this.deps.logger.warn('The dashboard sent a message it should not have; it was ignored.');
      return;
    }
    if (message.type === 'painted') {
      this.firstPaintMs ??= performance.now() - this.opened;
      this.deps.logger.info(`The dashboard painted its first render ${this.firstPaintMs.toFixed(0)} ms after it was opened.`);
      return;
    }
    try {
      await this.act(message.action, message.item);
    } catch (e) {
      this.deps.logger.error(e instanceof Error ? e : String(e));
      this.notice(`That did not work: ${errorMessage(e)}. Nothing was lost.`);
    }
  }

  private async act(action: DashboardAction, item: string | undefined): Promise<void> {
    if (action === 'compress') {
      await vscode.commands.executeCommand(COMMANDS.compress);
      return;
    }
    if (action === 'more') {
      this.itemLimit += ITEM_PAGE;
      return this.refresh();
    }
    const session = this.deps.sessions.current?.session;
    if (!session) return this.notice('There is no @ctx session yet.');
    switch (action) {
      case 'open':
        return this.open(session, item);
      case 'pin':
        return this.edit(session, session.pin(this.itemOf(item)));
      case 'unpin':
        return this.edit(session, session.unpin(this.itemOf(item)));
      case 'drop':
        return this.edit(session, session.drop(this.itemOf(item)));
      case 'offload':
        return this.edit(session, session.offloadNow(this.itemOf(item)));
      case 'undo':
        return this.edit(session, session.undoLastCompression());
      case 'preview':
        return this.startPreview(session);
      case 'apply':
        return this.applyPreview(session, item ?? '');
      case 'cancel':
        this.previewCancel?.cancel();
        session.discardCompressionPreview();
        return this.setPreview({ kind: 'none' });
    }
  }

  /** An item id from the page: it must be one the engine could have made. */
  private itemOf(item: string | undefined): string {
    if (!parseItemId(item)) throw new Error(`"${String(item)}" is not an item of the context`);
    return item ?? '';
  }

  private async edit(session: ContextSession, outcome: Promise<EditOutcome>): Promise<void> {
    const done = await outcome;
    await measureReported(this.deps.sessions.emit, session, this.deps.sessions.lastBudget(session));
    this.notice(done.message);
  }

  private async open(session: ContextSession, item: string | undefined): Promise<void> {
    const parsed = parseItemId(item);
    if (!parsed || item === undefined) return this.notice('That item is no longer in the context.');
    const title = parsed.kind === 'checkpoint' ? '' : ((await session.itemText(item))?.title ?? parsed.kind);
    const uri = parsed.kind === 'checkpoint' ? checkpointUri(session.id, parsed.key) : itemUri(session.id, item, title);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), {
      preview: true,
      viewColumn: vscode.ViewColumn.Beside,
    });
  }

  private async startPreview(session: ContextSession): Promise<void> {
    if (this.preview.kind === 'busy') return;
    this.previewCancel?.dispose();
    const cancel = new vscode.CancellationTokenSource();
    this.previewCancel = cancel;
    await this.setPreview({ kind: 'busy' });
    const summarizer = await summarizerFor(this.deps.config().summarizerModel, undefined);
    try {
      const preview = await session.previewCompression(this.deps.sessions.lastBudget(session), {
        ...(summarizer ? { summarizer } : {}),
        cancellation: cancel.token,
      });
      if (cancel.token.isCancellationRequested) return;
      await this.setPreview({ kind: 'ready', preview });
    } catch (e) {
      await this.setPreview({ kind: 'none' });
      throw e;
    }
  }

  private async applyPreview(session: ContextSession, id: string): Promise<void> {
    const applied = await session.applyCompressionPreview(id);
    await this.setPreview({ kind: 'none' });
    if (applied.prepared) this.deps.sessions.emit({ kind: 'prepared', session, prepared: applied.prepared });
    this.notice(applied.message);
  }

  private setPreview(state: PreviewState): Promise<void> {
    this.preview = state;
    return this.refresh();
  }
}
