/** Recovery search for people (a quick pick) and for models (ctx's tools), over one index per session set. */
import * as vscode from 'vscode';
import { RecoveryIndex } from '../engine/recovery/recoveryIndex';
import type { RecoveryHit } from '../engine/recovery/recoveryTypes';
import { openSessionFile } from './sessionDocuments';
import type { SessionManager } from './sessions';

/** Keystrokes closer together than this are one search. */
const PICK_DEBOUNCE_MS = 150;

export class Recovery {
  private readonly indexes = new Map<string, RecoveryIndex>();

  constructor(private readonly sessions: SessionManager) {}

  /** Searches one session, or every stored session when none is given (Copilot's agent mode has no @ctx session). */
  async search(sessionId: string | undefined, query: string, top = 10): Promise<RecoveryHit[]> {
    const ids = sessionId ? [sessionId] : (await this.sessions.list()).map((s) => s.id);
    if (ids.length === 0) return [];
    for (const id of ids) await (await this.sessions.get(id))?.save();
    const key = ids.join(',');
    let index = this.indexes.get(key);
    if (index) await index.refresh();
    else {
      index = await RecoveryIndex.build(this.sessions.store, ids);
      this.indexes.set(key, index);
    }
    return index.search(query, { top });
  }

  /** "Recover from offloaded content": type to search, choose a hit to open it where it was found. */
  async pick(sessionId: string): Promise<void> {
    const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { hit: RecoveryHit }>();
    quickPick.placeholder = 'Search offloaded results and the session archive (identifiers, paths, error text…)';
    quickPick.matchOnDescription = true;
    quickPick.matchOnDetail = true;
    let timer: NodeJS.Timeout | undefined;
    const disposables: vscode.Disposable[] = [quickPick];
    quickPick.onDidChangeValue(
      (value) => {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          quickPick.busy = true;
          const hits = value.trim() ? await this.search(sessionId, value, 20) : [];
          quickPick.items = hits.map((hit) => ({
            label: `$(${hit.source === 'offloaded' ? 'file-text' : 'archive'}) ${hit.toolName ?? hit.role ?? hit.source}`,
            description: hit.ref,
            detail: hit.excerpt.replace(/\s+/g, ' ').slice(0, 200),
            alwaysShow: true,
            hit,
          }));
          quickPick.busy = false;
        }, PICK_DEBOUNCE_MS);
      },
      undefined,
      disposables,
    );
    const chosen = await new Promise<RecoveryHit | undefined>((resolve) => {
      quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]?.hit), undefined, disposables);
      quickPick.onDidHide(() => resolve(undefined), undefined, disposables);
      quickPick.show();
    });
    clearTimeout(timer);
    disposables.forEach((d) => d.dispose());
    if (chosen) await this.open(chosen);
  }

  private async open(hit: RecoveryHit): Promise<void> {
    if (hit.location) return openSessionFile(hit.location.file, { start: hit.matchLine ?? hit.location.startLine, end: hit.matchLine ?? hit.location.endLine });
    const session = hit.sessionId ? await this.sessions.get(hit.sessionId) : this.sessions.current?.session;
    if (!session) return;
    const archive = (await this.sessions.store.read(session.paths.archive)) ?? '';
    const line = archive.split('\n').findIndex((l) => hit.messageId !== undefined && l.includes(`"id":${JSON.stringify(hit.messageId)}`));
    return openSessionFile(session.paths.archive, line >= 0 ? { start: line + 1, end: line + 1 } : undefined);
  }
}
