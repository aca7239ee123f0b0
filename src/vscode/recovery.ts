/** Recovery search for people (a quick pick) and for models (ctx's tools), over one index per session set. */
import * as vscode from 'vscode';
import { type RecoveryHit, RecoveryIndex } from '../engine/host/storage';
import { openSessionFile } from './sessionDocuments';
import type { SessionManager } from './sessions';

/** Keystrokes closer together than this are one search. */
const PICK_DEBOUNCE_MS = 150;

/** An index over a set of sessions, and the checkpoint summaries it holds by session and ref. */
interface IndexEntry {
  readonly index: RecoveryIndex;
  checkpoints: Map<string, string>;
}

export class Recovery {
  private readonly indexes = new Map<string, IndexEntry>();

  constructor(private readonly sessions: SessionManager) {}

  /**
   * Searches one session (with the sessions it was started fresh from, and `alsoIds`), or every stored
   * session when none is given (Copilot's agent mode has no @ctx session): offloaded results, the archive
   * and the checkpoints.
   */
  async search(sessionId: string | undefined, query: string, top = 10, alsoIds: readonly string[] = []): Promise<RecoveryHit[]> {
    const ids = sessionId ? [...new Set([...(await this.lineage(sessionId)), ...alsoIds])] : (await this.sessions.list()).map((s) => s.id);
    if (ids.length === 0) return [];
    for (const id of ids) await (await this.sessions.get(id))?.save();
    const key = ids.join(',');
    let entry = this.indexes.get(key);
    if (entry) await entry.index.refresh();
    else {
      entry = { index: await RecoveryIndex.build(this.sessions.store, ids), checkpoints: new Map() };
      this.indexes.set(key, entry);
    }
    await this.indexCheckpoints(entry, ids);
    return entry.index.search(query, { top });
  }

  /** A session and the sessions it was started fresh from, newest first. */
  async lineage(sessionId: string): Promise<string[]> {
    const ids: string[] = [];
    for (let id: string | undefined = sessionId; id && !ids.includes(id);) {
      ids.push(id);
      id = (await this.sessions.get(id))?.state.parentSessionId;
    }
    return ids;
  }

  /**
   * Checkpoints are not files: their summaries (and those of checkpoints undone or dropped) are added
   * to the index when new or changed (aging rewrites them), and merged-away ones removed.
   */
  private async indexCheckpoints(entry: IndexEntry, ids: readonly string[]): Promise<void> {
    const current = new Map<string, string>();
    for (const id of ids) {
      const session = await this.sessions.get(id);
      const documents = [
        ...(session?.checkpoints ?? []).map((c, i) => ({
          ref: `checkpoint ${i + 1} · ${c.range} (${c.id})`,
          text: c.summary,
          sessionId: id,
        })),
        // Checkpoints an undo or the user took out of the context stay findable.
        ...(session?.state.retiredCheckpoints ?? []).map((r) => ({
          ref: `${r.reason} checkpoint · ${r.checkpoint.range} (${r.checkpoint.id})`,
          text: r.checkpoint.summary,
          sessionId: id,
        })),
      ];
      for (const d of documents) current.set(`${id}\u0000${d.ref}`, d.text);
      entry.index.addDocuments(
        'checkpoint',
        documents.filter((d) => entry.checkpoints.get(`${id}\u0000${d.ref}`) !== d.text),
      );
    }
    for (const stale of entry.checkpoints.keys()) {
      if (current.has(stale)) continue;
      const [sessionId, ref] = stale.split('\u0000');
      entry.index.removeDocument('checkpoint', ref, sessionId);
    }
    entry.checkpoints = current;
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
    if (hit.location) {
      return openSessionFile(hit.location.file, {
        start: hit.matchLine ?? hit.location.startLine,
        end: hit.matchLine ?? hit.location.endLine,
      });
    }
    const session = hit.sessionId ? await this.sessions.get(hit.sessionId) : this.sessions.current?.session;
    if (!session) return;
    const archive = (await this.sessions.store.read(session.paths.archive)) ?? '';
    const line = archive.split('\n').findIndex((l) => hit.messageId !== undefined && l.includes(`"id":${JSON.stringify(hit.messageId)}`));
    return openSessionFile(session.paths.archive, line >= 0 ? { start: line + 1, end: line + 1 } : undefined);
  }
}
