/** The status report opens as a Markdown preview of a virtual, read-only document. */
import * as vscode from 'vscode';

const REPORT_SCHEME = 'ctx-report';
const reportUri = () => vscode.Uri.from({ scheme: REPORT_SCHEME, path: '/Context Status Report.md' });

export class ReportDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private text = '';

  /** @param renderCurrent the current session's report, for a report tab restored after a reload */
  constructor(private readonly renderCurrent: () => Promise<string>) {}

  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  async provideTextDocumentContent(): Promise<string> {
    return this.text || (await this.renderCurrent());
  }

  /** Shows the report, rendered; falls back to the Markdown source where no preview is available. */
  async show(markdown: string): Promise<void> {
    this.text = markdown;
    this.changed.fire(reportUri());
    try {
      await vscode.commands.executeCommand('markdown.showPreview', reportUri());
    } catch {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(reportUri()), { preview: true });
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerReportDocument(context: vscode.ExtensionContext, renderCurrent: () => Promise<string>): ReportDocument {
  const report = new ReportDocument(renderCurrent);
  context.subscriptions.push(report, vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, report));
  return report;
}
